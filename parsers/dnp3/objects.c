/* objects.c — the sizes of DNP3's data objects (IEEE 1815 Annex A), in bits, for the groups
 * and variations outstations commonly send: what the object headers' walk needs to step over
 * a header's objects. A variation 0 ("any") and the class objects (group 60) carry none; a
 * group 110 octet string is variation bytes long. Others are not known: the walk stops there
 * (dnp3.unknown_object). */
#include "dnp3_int.h"

struct osize {
    uint8_t group, variation;
    uint16_t bits;
};

static const struct osize SIZES[] = {
    {1, 1, 1}, {1, 2, 8},                                   /* binary inputs */
    {2, 1, 8}, {2, 2, 56}, {2, 3, 24},                      /* binary input events */
    {3, 1, 2}, {3, 2, 8},                                   /* double-bit inputs */
    {4, 1, 8}, {4, 2, 56}, {4, 3, 24},
    {10, 1, 1}, {10, 2, 8},                                 /* binary outputs */
    {11, 1, 8}, {11, 2, 56},
    {12, 1, 88}, {12, 2, 88}, {12, 3, 1},                   /* CROB, PCB, pattern mask */
    {13, 1, 8}, {13, 2, 56},
    {20, 1, 40}, {20, 2, 24}, {20, 3, 40}, {20, 4, 24}, {20, 5, 32}, {20, 6, 16},
    {20, 7, 32}, {20, 8, 16},                               /* counters */
    {21, 1, 40}, {21, 2, 24}, {21, 3, 40}, {21, 4, 24}, {21, 5, 88}, {21, 6, 72},
    {21, 7, 88}, {21, 8, 72}, {21, 9, 32}, {21, 10, 16}, {21, 11, 32}, {21, 12, 16},
    {22, 1, 40}, {22, 2, 24}, {22, 3, 40}, {22, 4, 24}, {22, 5, 88}, {22, 6, 72},
    {22, 7, 88}, {22, 8, 72},
    {23, 1, 40}, {23, 2, 24}, {23, 3, 40}, {23, 4, 24}, {23, 5, 88}, {23, 6, 72},
    {23, 7, 88}, {23, 8, 72},
    {30, 1, 40}, {30, 2, 24}, {30, 3, 32}, {30, 4, 16}, {30, 5, 40}, {30, 6, 72}, /* analog */
    {31, 1, 40}, {31, 2, 24}, {31, 3, 88}, {31, 4, 72}, {31, 5, 32}, {31, 6, 16},
    {31, 7, 40}, {31, 8, 72},
    {32, 1, 40}, {32, 2, 24}, {32, 3, 88}, {32, 4, 72}, {32, 5, 40}, {32, 6, 72},
    {32, 7, 88}, {32, 8, 120},
    {33, 1, 40}, {33, 2, 24}, {33, 3, 88}, {33, 4, 72}, {33, 5, 40}, {33, 6, 72},
    {33, 7, 88}, {33, 8, 120},
    {34, 1, 16}, {34, 2, 32}, {34, 3, 32},                  /* deadbands */
    {40, 1, 40}, {40, 2, 24}, {40, 3, 40}, {40, 4, 72},     /* analog output status */
    {41, 1, 40}, {41, 2, 24}, {41, 3, 40}, {41, 4, 72},     /* analog output blocks */
    {42, 1, 40}, {42, 2, 24}, {42, 3, 88}, {42, 4, 72}, {42, 5, 40}, {42, 6, 72},
    {42, 7, 88}, {42, 8, 120},
    {43, 1, 40}, {43, 2, 24}, {43, 3, 88}, {43, 4, 72}, {43, 5, 40}, {43, 6, 72},
    {43, 7, 88}, {43, 8, 120},
    {50, 1, 48}, {50, 2, 80}, {50, 3, 48}, {50, 4, 88},     /* time and date */
    {51, 1, 48}, {51, 2, 48},                               /* CTO */
    {52, 1, 16}, {52, 2, 16},                               /* time delay */
    {80, 1, 1},                                             /* internal indications */
    {120, 3, 48}, {120, 4, 16},                             /* authentication */
};

int dnp3_object_bits(uint8_t group, uint8_t variation)
{
    if (variation == 0 || group == 60)
        return 0;
    if (group == 110 || group == 111)
        return variation * 8;
    for (size_t i = 0; i < sizeof SIZES / sizeof SIZES[0]; i++)
        if (SIZES[i].group == group && SIZES[i].variation == variation)
            return SIZES[i].bits;
    return -1;
}
