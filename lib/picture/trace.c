/* trace.c - ffsim's trace, read a line at a time; see trace.h.
 *
 * A trace is read with ff_records_line rather than as records: its lines
 * end in words (the agent's state), and its columns are named by a
 * comment.  Same conventions otherwise: '#' starts a comment, blank lines
 * are skipped, errors name the line and column.
 */
#include "trace.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "crowd.h"
#include "grow.h"

#define TRACE_WORDS 64

static const char *const STATE_NAME[FF_TRACE_STATES] = { "moving", "waiting", "stuck",
                                                         "deadlocked", "arrived" };

const char *ff_trace_state_name(ff_trace_state s)
{
    return s >= FF_TRACE_MOVING && s < FF_TRACE_STATES ? STATE_NAME[s] : "?";
}

/* ffsim's state words (crowd.h's names) in the key's groups; a word it
 * does not know (a newer ffsim's) counts as moving. */
static ff_trace_state state_of(const char *word)
{
    static const struct {
        int sim;
        ff_trace_state shown;
    } group[] = {
        { FF_AGENT_WAITING_FIELD, FF_TRACE_WAITING },
        { FF_AGENT_STUCK, FF_TRACE_STUCK },
        { FF_AGENT_DEADLOCKED, FF_TRACE_DEADLOCKED },
        { FF_AGENT_ARRIVED, FF_TRACE_ARRIVED },
        { FF_AGENT_GONE, FF_TRACE_ARRIVED },
    };
    size_t k;

    for (k = 0; k < sizeof group / sizeof group[0]; k++)
        if (!strcmp(word, ff_agent_state_name(group[k].sim)))
            return group[k].shown;
    return FF_TRACE_MOVING;
}

void ff_trace_init(ff_trace_reader *t, FILE *f, const char *name, uint64_t every)
{
    memset(t, 0, sizeof *t);
    ff_records_init(&t->rec, f, name);
    t->radius_col = t->state_col = -1;
    t->every = every ? every : 1;
}

/* Split s into words (space, tab, CR); returns how many, at most max. */
static int split_words(char *s, char **word, int max)
{
    int n = 0;

    for (;;) {
        while (*s == ' ' || *s == '\t' || *s == '\r')
            s++;
        if (!*s || n == max)
            return n;
        word[n++] = s;
        while (*s && *s != ' ' && *s != '\t' && *s != '\r')
            s++;
        if (*s)
            *s++ = '\0';
    }
}

/* A comment naming the columns, as `# ffsim trace: tick id x y ...
 * radius ... state`: from the words `tick id x y` on, one word a column. */
static void trace_header(ff_trace_reader *t, char *comment)
{
    char *word[TRACE_WORDS];
    int n = split_words(comment, word, TRACE_WORDS), k, j;

    for (k = 0; k + 3 < n; k++)
        if (!strcmp(word[k], "tick") && !strcmp(word[k + 1], "id") &&
            !strcmp(word[k + 2], "x") && !strcmp(word[k + 3], "y")) {
            t->radius_col = t->state_col = -1;
            for (j = k + 4; j < n; j++) {
                if (!strcmp(word[j], "radius"))
                    t->radius_col = j - k;
                if (!strcmp(word[j], "state"))
                    t->state_col = j - k;
            }
            return;
        }
}

static ff_status trace_number(const ff_trace_reader *t, const char *buf, const char *word,
                              const char *what, double *v, ff_error *err)
{
    char *end;

    *v = strtod(word, &end);
    if (end == word || *end || !isfinite(*v))
        return ff_error_set(err, FF_EINPUT, t->rec.name, t->rec.line, (long)(word - buf) + 1,
                            "%s '%.40s' is not a finite number (want 'tick id x y ...')", what,
                            word);
    return FF_OK;
}

/* Parse one line of words into r; FF_OK or FF_EINPUT. */
static ff_status parse_line(const ff_trace_reader *t, const char *buf, char **word, int n,
                            ff_trace_record *r, ff_error *err)
{
    static const char *const what[4] = { "tick", "agent id", "x", "y" };
    double v[4];
    ff_status st;
    int k;

    if (n < 4)
        return ff_error_set(err, FF_EINPUT, t->rec.name, t->rec.line, 0,
                            "%d word%s on the line, expected 'tick id x y ...'", n,
                            n == 1 ? "" : "s");
    for (k = 0; k < 4; k++)
        if ((st = trace_number(t, buf, word[k], what[k], &v[k], err)) != FF_OK)
            return st;
    if (!(fabs(v[1]) <= 9007199254740992.0) || v[1] != floor(v[1]))
        return ff_error_set(err, FF_EINPUT, t->rec.name, t->rec.line, (long)(word[1] - buf) + 1,
                            "agent id '%s' is not an integer", word[1]);
    r->tick = v[0];
    r->id = (int64_t)v[1];
    r->x = v[2];
    r->y = v[3];
    r->radius = 0;
    r->state = FF_TRACE_MOVING;
    if (t->radius_col >= 0 && t->radius_col < n) {
        if ((st = trace_number(t, buf, word[t->radius_col], "radius", &r->radius, err)) != FF_OK)
            return st;
        if (!(r->radius > 0))
            return ff_error_set(err, FF_EINPUT, t->rec.name, t->rec.line,
                                (long)(word[t->radius_col] - buf) + 1, "radius '%s' must be > 0",
                                word[t->radius_col]);
    }
    if (t->state_col >= 0 && t->state_col < n)
        r->state = state_of(word[t->state_col]);
    return FF_OK;
}

ff_status ff_trace_next(ff_trace_reader *t, ff_trace_record *r, ff_error *err)
{
    char buf[FF_RECORD_LINE_MAX], *word[TRACE_WORDS], *hash;
    ff_status st;
    int n, got;

    for (;;) {
        if ((got = ff_records_line(&t->rec, buf, err)) <= 0)
            return got == 0 ? FF_ENOTFOUND : err ? err->status : FF_EINPUT;
        if ((hash = strchr(buf, '#')) != NULL) {
            *hash = '\0';
            trace_header(t, hash + 1);
        }
        if ((n = split_words(buf, word, TRACE_WORDS)) == 0)
            continue;
        if ((st = parse_line(t, buf, word, n, r, err)) != FF_OK)
            return st;
        if (t->ticks == 0 || r->tick != t->last_tick) {
            t->keeping = t->ticks % t->every == 0;
            t->ticks++;
            t->last_tick = r->tick;
            if (t->keeping)
                t->frames++;
        }
        if (t->keeping) {
            r->frame = t->frames - 1;
            return FF_OK;
        }
    }
}

static size_t id_hash(int64_t id, size_t nslot)
{
    uint64_t z = (uint64_t)id + 0x9e3779b97f4a7c15u;

    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return (size_t)((z ^ (z >> 31)) & (nslot - 1));
}

ff_status ff_trace_ids_find(ff_trace_ids *t, int64_t id, size_t *index, int *added, ff_error *err)
{
    size_t h, k;

    *added = 0;
    if (t->nslot)
        for (h = id_hash(id, t->nslot); t->slot[h]; h = (h + 1) & (t->nslot - 1))
            if (t->id[t->slot[h] - 1] == id) {
                *index = t->slot[h] - 1;
                return FF_OK;
            }
    if (t->n + 1 > UINT32_MAX - 1)
        return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "too many agents");
    if (2 * (t->n + 1) >= t->nslot) {
        size_t nslot = t->nslot ? 2 * t->nslot : 64;
        uint32_t *slot = calloc(nslot, sizeof *slot);
        if (!slot)
            return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for agents");
        for (k = 0; k < t->n; k++) {
            for (h = id_hash(t->id[k], nslot); slot[h]; h = (h + 1) & (nslot - 1))
                ;
            slot[h] = (uint32_t)k + 1;
        }
        free(t->slot);
        t->slot = slot;
        t->nslot = nslot;
    }
    if (t->n == t->cap) {
        int64_t *grown = ff_grow(t->id, &t->cap, t->n + 1, sizeof *grown, 16);
        if (!grown)
            return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for agents");
        t->id = grown;
    }
    for (h = id_hash(id, t->nslot); t->slot[h]; h = (h + 1) & (t->nslot - 1))
        ;
    t->slot[h] = (uint32_t)t->n + 1;
    t->id[t->n] = id;
    *index = t->n++;
    *added = 1;
    return FF_OK;
}

void ff_trace_ids_free(ff_trace_ids *t)
{
    free(t->id);
    free(t->slot);
    memset(t, 0, sizeof *t);
}
