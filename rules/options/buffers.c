/* buffers.c — buffer names (see buffers.h). */
#include "buffers.h"

#include "osprey_rules.h"

static const char *const BUFFER_NAMES[] = {
#define RULE_BUFFER_NAME(id, name) name,
    RULE_BUFFERS(RULE_BUFFER_NAME)
#undef RULE_BUFFER_NAME
};

const char *osprey_rules_buffer_name(unsigned buffer)
{
    return buffer < BUF_COUNT ? BUFFER_NAMES[buffer] : "?";
}
