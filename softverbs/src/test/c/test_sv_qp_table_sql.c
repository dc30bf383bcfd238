/* The modify-QP transition table is written twice: as C data (sv_qp_table.c) for softverbs and
 * as SQL rows (rules/_views/05_qp_transitions.sql) for the analyzer's rules. This test reads the
 * SQL rows and fails if any (type, from, to) pair differs from the C table in legality, the
 * required mask or the optional mask. Run from softverbs/ (as `make test` does). */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>

#include "sv_check.h"
#include "sv_loc.h"

#define SQL_PATH "../rules/_views/05_qp_transitions.sql"

static const struct { const char *name; uint32_t bit; } mask_names[] = {
    {"STATE", IBV_QP_STATE}, {"CUR_STATE", IBV_QP_CUR_STATE},
    {"EN_SQD_ASYNC_NOTIFY", IBV_QP_EN_SQD_ASYNC_NOTIFY}, {"ACCESS_FLAGS", IBV_QP_ACCESS_FLAGS},
    {"PKEY_INDEX", IBV_QP_PKEY_INDEX}, {"PORT", IBV_QP_PORT}, {"QKEY", IBV_QP_QKEY},
    {"AV", IBV_QP_AV}, {"PATH_MTU", IBV_QP_PATH_MTU}, {"TIMEOUT", IBV_QP_TIMEOUT},
    {"RETRY_CNT", IBV_QP_RETRY_CNT}, {"RNR_RETRY", IBV_QP_RNR_RETRY}, {"RQ_PSN", IBV_QP_RQ_PSN},
    {"MAX_QP_RD_ATOMIC", IBV_QP_MAX_QP_RD_ATOMIC}, {"ALT_PATH", IBV_QP_ALT_PATH},
    {"MIN_RNR_TIMER", IBV_QP_MIN_RNR_TIMER}, {"SQ_PSN", IBV_QP_SQ_PSN},
    {"MAX_DEST_RD_ATOMIC", IBV_QP_MAX_DEST_RD_ATOMIC}, {"PATH_MIG_STATE", IBV_QP_PATH_MIG_STATE},
    {"CAP", IBV_QP_CAP}, {"DEST_QPN", IBV_QP_DEST_QPN}, {"RATE_LIMIT", IBV_QP_RATE_LIMIT},
};

struct sql_row {
    int type, from, to;     /* enum values */
    uint32_t req, opt;
    bool seen_in_c;
};

static struct sql_row rows[128];
static size_t nrows;

static const char *skip_space(const char *p)
{
    for (;;) {
        while (*p && isspace((unsigned char)*p))
            p++;
        if (p[0] == '-' && p[1] == '-') {
            while (*p && *p != '\n')
                p++;
            continue;
        }
        return p;
    }
}

/* A quoted word into buf; NULL if none. */
static const char *quoted(const char *p, char *buf, size_t cap)
{
    p = skip_space(p);
    if (*p != '\'')
        return NULL;
    p++;
    size_t n = 0;
    while (*p && *p != '\'' && n + 1 < cap)
        buf[n++] = *p++;
    buf[n] = 0;
    return *p == '\'' ? p + 1 : NULL;
}

static const char *expect(const char *p, char c)
{
    p = skip_space(p);
    return p && *p == c ? p + 1 : NULL;
}

static int lookup(const char *const *names, int count, const char *word)
{
    for (int i = 0; i < count; i++)
        if (names[i] && strcmp(names[i], word) == 0)
            return i;
    return -1;
}

static uint32_t mask_bit(const char *word)
{
    for (size_t i = 0; i < sizeof mask_names / sizeof mask_names[0]; i++)
        if (strcmp(mask_names[i].name, word) == 0)
            return mask_names[i].bit;
    fprintf(stderr, "unknown mask name in SQL: %s\n", word);
    CHECK(0);
    return 0;
}

/* ['A', 'B', ...] as a mask */
static const char *mask_list(const char *p, uint32_t *mask)
{
    char word[64];
    *mask = 0;
    if (!(p = expect(p, '[')))
        return NULL;
    p = skip_space(p);
    if (*p == ']')
        return p + 1;
    for (;;) {
        if (!(p = quoted(p, word, sizeof word)))
            return NULL;
        *mask |= mask_bit(word);
        p = skip_space(p);
        if (*p == ']')
            return p + 1;
        if (*p != ',')
            return NULL;
        p++;
    }
}

static int type_of(const char *word)
{
    return strcmp(word, "RC") == 0 ? IBV_QPT_RC : strcmp(word, "UC") == 0 ? IBV_QPT_UC
         : strcmp(word, "UD") == 0 ? IBV_QPT_UD : -1;
}

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    return buf;
}

static void parse_sql(const char *text)
{
    const char *p = strstr(text, "INSERT INTO qp_transition VALUES");
    CHECK(p != NULL);
    if (!p)
        return;
    p += strlen("INSERT INTO qp_transition VALUES");
    char type[8], from[16], to[16];
    for (;;) {
        if (!(p = expect(p, '(')))
            break;
        struct sql_row r = {0};
        const char *q = quoted(p, type, sizeof type);
        q = q ? expect(q, ',') : NULL;
        q = q ? quoted(q, from, sizeof from) : NULL;
        q = q ? expect(q, ',') : NULL;
        q = q ? quoted(q, to, sizeof to) : NULL;
        q = q ? expect(q, ',') : NULL;
        q = q ? mask_list(q, &r.req) : NULL;
        q = q ? expect(q, ',') : NULL;
        q = q ? mask_list(q, &r.opt) : NULL;
        q = q ? expect(q, ')') : NULL;
        CHECK(q != NULL);
        if (!q)
            return;
        r.type = type_of(type);
        r.from = lookup(sv_qp_state_name, IBV_QPS_UNKNOWN, from);
        r.to = lookup(sv_qp_state_name, IBV_QPS_UNKNOWN, to);
        CHECK(r.type >= 0 && r.from >= 0 && r.to >= 0);
        CHECK(nrows < sizeof rows / sizeof rows[0]);
        if (r.type < 0 || r.from < 0 || r.to < 0 || nrows >= sizeof rows / sizeof rows[0])
            return;
        rows[nrows++] = r;
        p = skip_space(q);
        if (*p != ',')
            break;
        p++;
    }
    CHECK(*skip_space(p) == ';');
}

static struct sql_row *find(int type, int from, int to)
{
    for (size_t i = 0; i < nrows; i++)
        if (rows[i].type == type && rows[i].from == from && rows[i].to == to)
            return &rows[i];
    return NULL;
}

static const char *type_name(int t)
{
    return t == IBV_QPT_RC ? "RC" : t == IBV_QPT_UC ? "UC" : "UD";
}

static void compare(void)
{
    const int types[] = {IBV_QPT_RC, IBV_QPT_UC, IBV_QPT_UD};
    for (int ti = 0; ti < 3; ti++)
        for (int f = IBV_QPS_RESET; f <= IBV_QPS_ERR; f++)
            for (int to = IBV_QPS_RESET; to <= IBV_QPS_ERR; to++) {
                uint32_t req = 0, opt = 0;
                int legal_c = sv_qp_transition_masks(types[ti], f, to, 0, &req, &opt) == 0;
                struct sql_row *r = find(types[ti], f, to);
                if (legal_c != (r != NULL) || (r && (r->req != req || r->opt != opt)))
                    fprintf(stderr, "%s %s -> %s: C %s req 0x%x opt 0x%x, SQL %s req 0x%x opt 0x%x\n",
                            type_name(types[ti]), sv_qp_state_name[f], sv_qp_state_name[to],
                            legal_c ? "legal" : "illegal", req, opt, r ? "legal" : "illegal",
                            r ? r->req : 0, r ? r->opt : 0);
                CHECK_EQ(r != NULL, legal_c);
                if (r && legal_c) {
                    CHECK_EQ(r->req, req);
                    CHECK_EQ(r->opt, opt);
                }
                if (r)
                    r->seen_in_c = true;
            }
    for (size_t i = 0; i < nrows; i++)
        CHECK(rows[i].seen_in_c);   /* a SQL row outside the 3 x 7 x 7 pairs */
}

int main(void)
{
    const char *text = read_file(SQL_PATH);
    CHECK(text != NULL);
    if (!text) {
        fprintf(stderr, "cannot read %s (run from softverbs/)\n", SQL_PATH);
        return sv_check_report("test_sv_qp_table_sql");
    }
    parse_sql(text);
    compare();
    return sv_check_report("test_sv_qp_table_sql");
}
