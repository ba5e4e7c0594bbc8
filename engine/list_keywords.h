/* list_keywords.h — `osprey --list-keywords`: the rule keyword registry as CSV. */
#ifndef OSPREY_LIST_KEYWORDS_H
#define OSPREY_LIST_KEYWORDS_H

#include <stdio.h>

/* Print a header line and one line per keyword, in registry order:
 * `keyword,dialects,kind,status,buffer` (see engine/README.md). Returns an exit status. */
int osprey_list_keywords(FILE *out);

#endif
