/* names.c — EtherNet/IP's and CIP's names as Suricata's EVE writes them: encapsulation
 * commands and statuses (CIP Vol 2 §2-3.2, §2-3.3), CIP services (Vol 1 Appendix A) and
 * general statuses (Vol 1 Appendix B). */
#include "enip_int.h"

const char *enip_command_name(uint16_t cmd)
{
    switch (cmd) {
    case ENIP_CMD_NOP: return "NOP";
    case ENIP_CMD_LIST_SERVICES: return "ListServices";
    case ENIP_CMD_LIST_IDENTITY: return "ListIdentity";
    case ENIP_CMD_LIST_INTERFACES: return "ListInterfaces";
    case ENIP_CMD_REGISTER: return "RegisterSession";
    case ENIP_CMD_UNREGISTER: return "UnregisterSession";
    case ENIP_CMD_SEND_RR: return "SendRRData";
    case ENIP_CMD_SEND_UNIT: return "SendUnitData";
    case ENIP_CMD_INDICATE: return "IndicateStatus";
    case ENIP_CMD_CANCEL: return "Cancel";
    default: return "Unknown";
    }
}

const char *enip_status_name(uint32_t status)
{
    switch (status) {
    case 0: return "SUCCESS";
    case 1: return "INVALID_CMD";
    case 2: return "NO_RESOURCES";
    case 3: return "INCORRECT_DATA";
    case 0x64: return "INVALID_SESSION";
    case 0x65: return "INVALID_LENGTH";
    case 0x69: return "UNSUPPORTED_PROT_REV";
    case 0x6a: return "ENCAP_HEADER_ERROR";
    default: return "Unknown";
    }
}

const char *enip_cip_service_name(uint8_t s)
{
    switch (s) {
    case 0x01: return "GetAttributesAll";
    case 0x02: return "SetAttributesAll";
    case 0x03: return "GetAttributeList";
    case 0x04: return "SetAttributeList";
    case 0x05: return "Reset";
    case 0x06: return "Start";
    case 0x07: return "Stop";
    case 0x08: return "Create";
    case 0x09: return "Delete";
    case 0x0a: return "MultipleServicePacket";
    case 0x0d: return "ApplyAttributes";
    case 0x0e: return "GetAttributeSingle";
    case 0x10: return "SetAttributeSingle";
    case 0x11: return "FindNextObjectInstance";
    case 0x14: return "ErrorResponse";
    case 0x15: return "Restore";
    case 0x16: return "Save";
    case 0x17: return "NOP";
    case 0x18: return "GetMember";
    case 0x19: return "SetMember";
    case 0x1a: return "InsertMember";
    case 0x1b: return "RemoveMember";
    case 0x1c: return "GroupSync";
    case 0x4c: return "ReadTag";
    case 0x4d: return "WriteTag";
    case 0x4e: return "ForwardClose";
    case 0x52: return "UnconnectedSend";
    case 0x54: return "ForwardOpen";
    case 0x5b: return "LargeForwardOpen";
    default: return "Unknown";
    }
}

const char *enip_cip_status_name(uint8_t s)
{
    static const char *const N[] = {
        "Success", "ConnectionFailure", "ResourceUnavailable", "InvalidParameterValue",
        "PathSegmentError", "PathDestinationUnknown", "PartialTransfer", "ConnectionLost",
        "ServiceNotSupported", "InvalidAttributeValue", "AttributeListError",
        "AlreadyInRequestedMode", "ObjectStateConflict", "ObjectAlreadyExists",
        "AttributeNotSettable", "PrivilegeViolation", "DeviceStateConflict",
        "ReplyDataTooLarge", "FragmentationOfPrimitiveValue", "NotEnoughData",
        "AttributeNotSupported", "TooMuchData", "ObjectDoesNotExist",
        "ServiceFragmentationSequenceNotInProgress", "NoStoredAttributeData",
        "StoreOperationFailure", "RoutingFailureRequestPacketTooLarge",
        "RoutingFailureResponsePacketTooLarge", "MissingAttributeListEntryData",
        "InvalidAttributeValueList", "EmbeddedServiceError", "VendorSpecificError",
        "InvalidParameter", "WriteOnceValueOrMediumAlreadyWritten", "InvalidReplyReceived",
        "BufferOverflow", "MessageFormatError", "KeyFailureInPath", "PathSizeInvalid",
        "UnexpectedAttributeInList", "InvalidMemberId", "MemberNotSettable"};
    return s < sizeof N / sizeof N[0] ? N[s] : "Unknown";
}
