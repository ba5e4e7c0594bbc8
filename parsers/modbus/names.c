/* names.c — Modbus's names as Suricata's EVE writes them: functions, exception codes and the
 * categories of function codes (Modbus Application Protocol V1.1b3 §5: public codes the
 * specification assigns, public ones it leaves unassigned, the user-defined ranges 65-72 and
 * 100-110, and the codes Annex A reserves for legacy products). */
#include "modbus_int.h"

uint8_t modbus_category(uint8_t fc)
{
    switch (fc) {
    case 1: case 2: case 3: case 4: case 5: case 6: case 7: case 8: case 11: case 12:
    case 15: case 16: case 17: case 20: case 21: case 22: case 23: case 24: case 43:
        return MB_CAT_ASSIGNED;
    case 9: case 10: case 13: case 14: case 41: case 42: case 90: case 91: case 125:
    case 126: case 127:
        return MB_CAT_RESERVED;
    default:
        break;
    }
    if ((fc >= 65 && fc <= 72) || (fc >= 100 && fc <= 110))
        return MB_CAT_USER;
    return fc >= 1 && fc <= 127 ? MB_CAT_UNASSIGNED : MB_CAT_NONE;
}

const char *modbus_function_name(uint8_t fc)
{
    switch (fc) {
    case 1: return "RdCoils";
    case 2: return "RdDiscreteInputs";
    case 3: return "RdHoldRegs";
    case 4: return "RdInputRegs";
    case 5: return "WrSingleCoil";
    case 6: return "WrSingleReg";
    case 7: return "RdExcStatus";
    case 8: return "Diagnostic";
    case 9: return "Program484";
    case 10: return "Poll484";
    case 11: return "GetCommEventCtr";
    case 12: return "GetCommEventLog";
    case 13: return "ProgramController";
    case 14: return "PollController";
    case 15: return "WrMultCoils";
    case 16: return "WrMultRegs";
    case 17: return "ReportServerID";
    case 18: return "Program884";
    case 19: return "ResetCommLink";
    case 20: return "RdFileRec";
    case 21: return "WrFileRec";
    case 22: return "MaskWrReg";
    case 23: return "RdWrMultRegs";
    case 24: return "RdFIFOQueue";
    case 43: return "MEI";
    default: return "Unknown";
    }
}

const char *modbus_category_name(uint8_t cat)
{
    switch (cat) {
    case MB_CAT_ASSIGNED: return "PUBLIC_ASSIGNED";
    case MB_CAT_UNASSIGNED: return "PUBLIC_UNASSIGNED";
    case MB_CAT_USER: return "USER_DEFINED";
    case MB_CAT_RESERVED: return "RESERVED";
    default: return "NONE";
    }
}

static const char *const EXCEPTIONS[] = {
    [1] = "IllegalFunction", [2] = "IllegalDataAddr", [3] = "IllegalDataValue",
    [4] = "ServerDeviceFail", [5] = "Ack", [6] = "ServerDeviceBusy", [7] = "NegAck",
    [8] = "MemParityErr", [10] = "GatewayPathUnavail", [11] = "GatewayTargetFailToResp",
};

bool modbus_exception_known(uint8_t code)
{
    return code < sizeof EXCEPTIONS / sizeof EXCEPTIONS[0] && EXCEPTIONS[code];
}

const char *modbus_exception_name(uint8_t code)
{
    return modbus_exception_known(code) ? EXCEPTIONS[code] : "Unknown";
}
