/* config_tree.c — libyaml events → struct cfg_node tree with file and line on every node.
 *
 * The event API is used (not the document API) so that nesting is bounded by an explicit
 * stack rather than recursion, and aliases can be refused instead of shared.
 */
#include "config_tree.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <yaml.h>

/* Deeper than any sane config; bounds the stack here and recursion in the loader. */
#define MAX_DEPTH 64

static struct cfg_node *node_new(enum cfg_node_kind kind, const char *file, int line)
{
    struct cfg_node *n = calloc(1, sizeof *n);
    if (n) {
        n->kind = kind;
        n->file = file;
        n->line = line;
    }
    return n;
}

struct cfg_node *cfg_node_scalar(const char *text, const char *file, int line)
{
    struct cfg_node *n = node_new(CFG_SCALAR, file, line);
    if (n && !(n->text = strdup(text))) {
        free(n);
        return NULL;
    }
    return n;
}

void cfg_node_free(struct cfg_node *node)
{
    if (!node)
        return;
    for (size_t i = 0; i < node->n; i++) {
        cfg_node_free(node->item[i]);
        if (node->key)
            cfg_node_free(node->key[i]);
    }
    cfg_node_free(node->pending_key);
    free(node->item);
    free(node->key);
    free(node->text);
    free(node);
}

void cfg_node_describe(const struct cfg_node *node, char *buf, size_t len)
{
    if (node->kind == CFG_SEQ)
        snprintf(buf, len, "a list");
    else if (node->kind == CFG_MAP)
        snprintf(buf, len, "a map");
    else if (strlen(node->text) > 60)
        snprintf(buf, len, "'%.57s...'", node->text);
    else
        snprintf(buf, len, "'%s'", node->text);
}

static bool is_null_scalar(const yaml_event_t *ev)
{
    const char *v = (const char *)ev->data.scalar.value;
    if (ev->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
        return false;
    return !*v || !strcmp(v, "~") || !strcmp(v, "null") || !strcmp(v, "Null") ||
           !strcmp(v, "NULL");
}

/* Append child to parent (a sequence item, a map key, or a map value). 0, or -1 when out of
 * memory; on failure child is freed. */
static int attach(struct cfg_node *parent, struct cfg_node *child)
{
    if (parent->kind == CFG_MAP && !parent->pending_key) {
        parent->pending_key = child;
        return 0;
    }
    if (parent->n == parent->cap) {
        size_t cap = parent->cap ? parent->cap * 2 : 8;
        struct cfg_node **item = realloc(parent->item, cap * sizeof *item);
        if (!item)
            goto oom;
        parent->item = item;
        if (parent->kind == CFG_MAP) {
            struct cfg_node **key = realloc(parent->key, cap * sizeof *key);
            if (!key)
                goto oom;
            parent->key = key;
        }
        parent->cap = cap;
    }
    if (parent->kind == CFG_MAP) {
        parent->key[parent->n] = parent->pending_key;
        parent->pending_key = NULL;
    }
    parent->item[parent->n++] = child;
    return 0;
oom:
    cfg_node_free(child);
    return -1;
}

static void syntax_error(const yaml_parser_t *p, const char *path, FILE *diag)
{
    const char *problem = p->problem ? p->problem : "unknown error";
    switch (p->error) {
    case YAML_MEMORY_ERROR:
        fprintf(diag, "%s: out of memory while reading YAML\n", path);
        break;
    case YAML_READER_ERROR:
        fprintf(diag, "%s: cannot read YAML: %s at byte %zu\n", path, problem,
                p->problem_offset);
        break;
    default:
        if (p->context)
            fprintf(diag, "%s:%zu: YAML syntax error: %s (column %zu), %s at line %zu\n", path,
                    p->problem_mark.line + 1, problem, p->problem_mark.column + 1, p->context,
                    p->context_mark.line + 1);
        else
            fprintf(diag, "%s:%zu: YAML syntax error: %s (column %zu)\n", path,
                    p->problem_mark.line + 1, problem, p->problem_mark.column + 1);
        break;
    }
}

/* Feed every event of the stream into a tree. Returns 0 or -1 (message printed). */
static int build(yaml_parser_t *p, const char *path, struct cfg_node **root, FILE *diag)
{
    struct cfg_node *stack[MAX_DEPTH];
    int depth = 0, documents = 0;
    bool done = false;

    while (!done) {
        yaml_event_t ev;
        if (!yaml_parser_parse(p, &ev)) {
            syntax_error(p, path, diag);
            return -1;
        }
        int line = (int)ev.start_mark.line + 1;
        struct cfg_node *node = NULL;
        const char *err = NULL;

        switch (ev.type) {
        case YAML_STREAM_END_EVENT:
            done = true;
            break;
        case YAML_DOCUMENT_START_EVENT:
            if (++documents > 1)
                err = "more than one YAML document; a config file holds one";
            break;
        case YAML_ALIAS_EVENT:
            err = "YAML aliases (*name) are not supported in config files";
            break;
        case YAML_SCALAR_EVENT:
            if (strlen((const char *)ev.data.scalar.value) != ev.data.scalar.length) {
                err = "NUL character in a value";
                break;
            }
            node = cfg_node_scalar((const char *)ev.data.scalar.value, path, line);
            if (node)
                node->null = is_null_scalar(&ev);
            break;
        case YAML_SEQUENCE_START_EVENT:
        case YAML_MAPPING_START_EVENT:
            if (depth == MAX_DEPTH) {
                err = "nesting too deep";
                break;
            }
            node = node_new(ev.type == YAML_MAPPING_START_EVENT ? CFG_MAP : CFG_SEQ, path, line);
            break;
        case YAML_SEQUENCE_END_EVENT:
        case YAML_MAPPING_END_EVENT:
            depth--;
            break;
        default:
            break;
        }

        bool created = ev.type == YAML_SCALAR_EVENT || ev.type == YAML_SEQUENCE_START_EVENT ||
                       ev.type == YAML_MAPPING_START_EVENT;
        if (!err && created) {
            if (!node) {
                err = "out of memory";
            } else if (depth > 0 && stack[depth - 1]->kind == CFG_MAP &&
                       !stack[depth - 1]->pending_key && node->kind != CFG_SCALAR) {
                cfg_node_free(node);
                err = "a map key must be a plain value, not a list or map";
            } else if (depth == 0) {
                *root = node;
            } else if (attach(stack[depth - 1], node) < 0) {
                err = "out of memory";
            }
            if (!err && node->kind != CFG_SCALAR)
                stack[depth++] = node;
        }
        yaml_event_delete(&ev);
        if (err) {
            fprintf(diag, "%s:%d: %s\n", path, line, err);
            return -1;
        }
    }
    return 0;
}

int cfg_tree_load(const char *path, struct cfg_node **root, FILE *diag)
{
    *root = NULL;
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(diag, "%s: cannot open config file: %s\n", path, strerror(errno));
        return -1;
    }
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        fprintf(diag, "%s: cannot open config file: %s\n", path, strerror(EISDIR));
        fclose(f);
        return -1;
    }

    yaml_parser_t parser;
    if (!yaml_parser_initialize(&parser)) {
        fprintf(diag, "%s: out of memory while reading YAML\n", path);
        fclose(f);
        return -1;
    }
    yaml_parser_set_input_file(&parser, f);
    int rc = build(&parser, path, root, diag);
    if (rc == 0 && ferror(f)) {
        fprintf(diag, "%s: read error: %s\n", path, strerror(errno));
        rc = -1;
    }
    yaml_parser_delete(&parser);
    fclose(f);
    if (rc < 0) {
        cfg_node_free(*root);
        *root = NULL;
    }
    return rc;
}
