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

void ff_trace_notes_free(ff_trace_notes *n)
{
    free(n->event);
    free(n->field_radius);
    memset(n, 0, sizeof *n);
}

/* A whole number of at most 18 digits, as ffsim writes cells and ticks. */
static int whole(const char *s, long long *v)
{
    char *end;

    if (!*s || strlen(s) > 18)
        return 0;
    *v = strtoll(s, &end, 10);
    return !*end;
}

/* Four cells' coordinates X0,Y0,X1,Y1. */
static int cell_box(char *s, long long v[4])
{
    char *part[4];
    int k;

    for (k = 0; k < 4; k++) {
        part[k] = s;
        s = strchr(s, ',');
        if (k < 3) {
            if (!s)
                return 0;
            *s++ = '\0';
        } else if (s) {
            return 0;
        }
    }
    for (k = 0; k < 4; k++)
        if (!whole(part[k], &v[k]))
            return 0;
    return 1;
}

static ff_status note_event(ff_trace_reader *t, const ff_trace_event *e, ff_error *err)
{
    ff_trace_notes *n = t->notes;
    ff_trace_event *grown = ff_grow(n->event, &n->cap, n->nevents + 1, sizeof *grown, 16);

    if (!grown)
        return ff_error_set(err, FF_ENOMEM, t->rec.name, t->rec.line, 0,
                            "out of memory for map events");
    n->event = grown;
    n->event[n->nevents++] = *e;
    return FF_OK;
}

/* The comments that tell what a picture needs: `tick T close|open
 * X0,Y0,X1,Y1`, `tick T field K radius R id ID published [again]`, `tick_dt D`
 * and `field K radius R id ID`.  Other comments are comments. */
static ff_status trace_note(ff_trace_reader *t, char *comment, ff_error *err)
{
    char *word[TRACE_WORDS], *end;
    int n = split_words(comment, word, TRACE_WORDS);
    ff_trace_notes *notes = t->notes;
    ff_trace_event e;
    long long v[4], tick;

    memset(&e, 0, sizeof e);
    e.line = t->rec.line;
    if (n >= 2 && !strcmp(word[0], "tick_dt")) {
        double dt = strtod(word[1], &end);
        if (!*end && dt > 0 && isfinite(dt))
            notes->tick_dt = dt;
        return FF_OK;
    }
    if (n == 6 && !strcmp(word[0], "field") && !strcmp(word[2], "radius") &&
        !strcmp(word[4], "id")) {
        double r = strtod(word[3], &end), *grown;
        if (*end || !(r >= 0) || !isfinite(r))
            return FF_OK;
        grown = ff_grow(notes->field_radius, &notes->field_cap, notes->nfields + 1,
                        sizeof *grown, 8);
        if (!grown)
            return ff_error_set(err, FF_ENOMEM, t->rec.name, t->rec.line, 0,
                                "out of memory for the trace's fields");
        notes->field_radius = grown;
        notes->field_radius[notes->nfields++] = r;
        return FF_OK;
    }
    if (n < 3 || strcmp(word[0], "tick") != 0)
        return FF_OK;
    if (!strcmp(word[2], "close") || !strcmp(word[2], "open")) {
        if (n != 4 || !whole(word[1], &tick) || !cell_box(word[3], v))
            return ff_error_set(err, FF_EINPUT, t->rec.name, t->rec.line, 0,
                                "a map event: want '# tick T %s X0,Y0,X1,Y1' (whole numbers)",
                                word[2]);
        e.tick = (double)tick;
        e.kind = word[2][0] == 'c' ? FF_TRACE_CLOSE : FF_TRACE_OPEN;
        e.x0 = v[0];
        e.y0 = v[1];
        e.x1 = v[2];
        e.y1 = v[3];
        return note_event(t, &e, err);
    }
    if ((n == 9 || (n == 10 && !strcmp(word[9], "again"))) && !strcmp(word[2], "field") &&
        !strcmp(word[4], "radius") && !strcmp(word[6], "id") && !strcmp(word[8], "published") &&
        whole(word[1], &tick)) {
        e.radius = strtod(word[5], &end);
        if (*end || !(e.radius >= 0) || !isfinite(e.radius))
            return FF_OK;
        e.tick = (double)tick;
        e.kind = FF_TRACE_PUBLISHED;
        return note_event(t, &e, err);
    }
    return FF_OK;
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
            if (t->notes) {
                char note[FF_RECORD_LINE_MAX];
                memcpy(note, hash + 1, strlen(hash + 1) + 1);
                if ((st = trace_note(t, note, err)) != FF_OK)
                    return st;
            }
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
