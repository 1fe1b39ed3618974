/* test_batch.c - goal-sets files, and the fields of many sets built on
 * one or several threads against an independent brute-force search. */
#include "testutil.h"

#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <math.h>

#include "batch.h"
#include "fieldsel.h"
#include "mapread.h"

/* ---- a small map ---- */

/* 5 x 4, '#' walls. */
static void small_grid(ff_grid *g)
{
    static const char *const rows[4] = { "...#.", ".#.#.", ".#...", "...##" };
    ff_error err;
    int x, y;

    ff_grid_init(g);
    cr_assert_eq(ff_grid_alloc(g, 5, 4, 0, "t", &err), FF_OK);
    for (y = 0; y < 4; y++)
        for (x = 0; x < 5; x++)
            g->cost[y * 5 + x] = rows[y][x] == '#' ? INFINITY : 1.0f;
}

static ff_status read_sets(const char *text, const ff_grid *g, ff_goal_sets *s, ff_error *err)
{
    FILE *f = tu_string_file(text);
    ff_status st;

    cr_assert_not_null(f);
    ff_error_clear(err);
    st = ff_goal_sets_read(f, "sets.txt", g, s, err);
    fclose(f);
    return st;
}

/* ---- names ---- */

Test(batch, set_names)
{
    static const char *const good[] = { "a", "gate_1", "Gate-2.north", "0", "a.b.c",
                                        "x123456789012345678901234567890123456789012345678901234567890ab" };
    static const char *const bad[] = { "", ".hidden", "-x", "..", ".", "a/b", "a b", "é",
                                       "a*", "a#b", "x1234567890123456789012345678901234567890123456789012345678901ab" };
    size_t k;

    for (k = 0; k < sizeof good / sizeof *good; k++)
        cr_expect(ff_set_name_ok(good[k]), "'%s' should be accepted", good[k]);
    for (k = 0; k < sizeof bad / sizeof *bad; k++)
        cr_expect(!ff_set_name_ok(bad[k]), "'%s' should be refused", bad[k]);
}

/* ---- reading ---- */

Test(batch, read_sets)
{
    ff_grid g;
    ff_goal_sets s;
    ff_error err;

    small_grid(&g);
    cr_assert_eq(read_sets("# gates\n"
                           "north 0,0\n"
                           "\n"
                           "   \t\n"
                           "both\t4,0  0,3 4,0 # a repeat is kept once\r\n"
                           "east 4,2\n",
                           &g, &s, &err), FF_OK, "%s", err.msg);
    cr_assert_eq(s.nsets, 3);
    cr_expect_str_eq(s.set[0].name, "north");
    cr_expect_eq(s.set[0].line, 2);
    cr_assert_eq(s.set[0].ngoals, 1);
    cr_expect_eq(s.set[0].goals[0], 0u);
    cr_expect_str_eq(s.set[1].name, "both");
    cr_expect_eq(s.set[1].line, 5);
    cr_assert_eq(s.set[1].ngoals, 2);
    cr_expect_eq(s.set[1].goals[0], 4u);        /* (4,0): ascending */
    cr_expect_eq(s.set[1].goals[1], 3u * 5u);   /* (0,3) */
    cr_expect_str_eq(s.set[2].name, "east");
    cr_expect_eq(s.set[2].goals[0], 2u * 5u + 4u);
    cr_expect_eq(g.ngoals, 0, "the map's own goals are not touched");
    ff_goal_sets_free(&s);
    cr_expect_eq(s.nsets, 0);
    ff_grid_free(&g);
}

/* A refused goal-sets file: its text, and where and what the error says.
 * Arrays, not pointers: Criterion runs each test in a new process. */
typedef struct {
    char text[48];
    long line, col;
    char what[48];
} bad_sets;

ParameterizedTestParameters(batch, refused)
{
    static bad_sets bad_cases[] = {
        { "", 0, 0, "no goal set" },
        { "# only a comment\n\n", 0, 0, "no goal set" },
        { "a 0,0\nb/c 0,0\n", 2, 1, "bad set name 'b/c'" },
        { "a 0,0\n  .x 0,0\n", 2, 3, "bad set name '.x'" },
        { "a 0,0\nb 2,0\na 4,0\n", 3, 1, "set 'a' repeated (first on line 1)" },
        { "a 0,0 1\n", 1, 7, "bad goal '1' in set 'a'" },
        { "a 0,0 1 x\n", 1, 7, "bad goal '1 x' in set 'a'" },
        { "a 0,0 1,x\n", 1, 7, "bad goal '1,x'" },
        { "a 0,0\nb  5,0\n", 2, 4, "goal 5,0 is outside the 5x4 map" },
        { "a -1,0\n", 1, 3, "goal -1,0 is outside" },
        { "a 3,0\n", 1, 3, "goal 3,0 is on a blocked cell" },
        { "a 0,0\nlonely\n", 2, 0, "set 'lonely' has no goals" },
        { "a 0,0\nb # 1,1\n", 2, 0, "set 'b' has no goals" },
    };
    return cr_make_param_array(bad_sets, bad_cases, sizeof bad_cases / sizeof *bad_cases);
}

ParameterizedTest(bad_sets *c, batch, refused)
{
    ff_grid g;
    ff_goal_sets s;
    ff_error err;

    small_grid(&g);
    cr_assert_eq(read_sets(c->text, &g, &s, &err), FF_EINPUT, "'%s' was accepted", c->text);
    cr_expect_str_eq(err.file, "sets.txt");
    cr_expect_eq(err.line, c->line, "line %ld, want %ld (%s)", err.line, c->line, err.msg);
    cr_expect_eq(err.col, c->col, "col %ld, want %ld (%s)", err.col, c->col, err.msg);
    cr_expect(strstr(err.msg, c->what) != NULL, "'%s' does not say '%s'", err.msg, c->what);
    cr_expect_eq(s.nsets, 0);
    cr_expect_null(s.set);
    ff_grid_free(&g);
}

Test(batch, nul_byte_refused)
{
    static const char text[] = "a 0,0\nb 0\0,0\n";
    ff_grid g;
    ff_goal_sets s;
    ff_error err;
    FILE *f;

    small_grid(&g);
    f = fmemopen((void *)text, sizeof text - 1, "rb");
    cr_assert_not_null(f);
    cr_expect_eq(ff_goal_sets_read(f, "sets.txt", &g, &s, &err), FF_EINPUT);
    cr_expect_eq(err.line, 2);
    cr_expect_eq(err.col, 4);
    cr_expect(strstr(err.msg, "NUL") != NULL, "%s", err.msg);
    fclose(f);
    ff_grid_free(&g);
}

Test(batch, many_names_repeat_found)
{
    /* Enough names to grow the name table several times; the repeat is
     * the last line and names the first. */
    size_t cap = 1 << 16, len = 0, k;
    char *text = malloc(cap);
    ff_grid g;
    ff_goal_sets s;
    ff_error err;

    small_grid(&g);
    cr_assert_not_null(text);
    for (k = 0; k < 1000; k++)
        len += (size_t)sprintf(text + len, "set%zu 0,0\n", k);
    cr_assert_eq(read_sets(text, &g, &s, &err), FF_OK, "%s", err.msg);
    cr_expect_eq(s.nsets, 1000);
    ff_goal_sets_free(&s);
    sprintf(text + len, "set617 4,0\n");
    cr_assert_eq(read_sets(text, &g, &s, &err), FF_EINPUT);
    cr_expect_eq(err.line, 1001);
    cr_expect(strstr(err.msg, "set 'set617' repeated (first on line 618)") != NULL, "%s",
              err.msg);
    free(text);
    ff_grid_free(&g);
}

/* ---- building: an independent multi-source search ---- */

static const int DX[8] = { 0, 1, 0, -1, 1, 1, -1, -1 };
static const int DY[8] = { -1, 0, 1, 0, -1, 1, 1, -1 };

/* Bellman-Ford style relaxation to a fixed point over the 8 moves with
 * the strict corner rule and uniform cost 1 (octile distance), from every
 * goal at once: slow and obviously right. */
static void brute_force(const uint8_t *open, int w, int h, const uint32_t *goals, size_t ngoals,
                        double *d)
{
    int changed = 1, x, y, k;
    size_t i;

    for (i = 0; i < (size_t)w * (size_t)h; i++)
        d[i] = INFINITY;
    for (i = 0; i < ngoals; i++)
        d[goals[i]] = 0;
    while (changed) {
        changed = 0;
        for (y = 0; y < h; y++)
            for (x = 0; x < w; x++) {
                if (!open[y * w + x])
                    continue;
                for (k = 0; k < 8; k++) {
                    int nx = x + DX[k], ny = y + DY[k];
                    double c;
                    if (nx < 0 || ny < 0 || nx >= w || ny >= h || !open[ny * w + nx])
                        continue;
                    if (k >= 4 && !(open[y * w + nx] && open[ny * w + x]))
                        continue;
                    c = d[ny * w + nx] + (k < 4 ? 1.0 : sqrt(2.0));
                    if (c < d[y * w + x] - 1e-12) {
                        d[y * w + x] = c;
                        changed = 1;
                    }
                }
            }
    }
}

/* (at least FF_BATCH_THREAD_CELLS cells: threads are used) */
#define RW 41
#define RH 29
#define NSETS 40

typedef struct {
    ff_grid grid;
    uint8_t open[RW * RH];
    ff_goal_sets sets;
} random_case;

/* A seeded 41 x 29 map with about 30% walls and 40 sets of 1 to 4 goals. */
static void random_sets(random_case *rc, unsigned long long seed)
{
    unsigned long long st = seed;
    char *text = malloc(1 << 14);
    size_t len = 0, k;
    ff_error err;
    int i, j;

    cr_assert_not_null(text);
    ff_grid_init(&rc->grid);
    cr_assert_eq(ff_grid_alloc(&rc->grid, RW, RH, 0, "t", &err), FF_OK);
    for (i = 0; i < RW * RH; i++) {
        rc->open[i] = tu_next(&st) % 10 >= 3;
        rc->grid.cost[i] = rc->open[i] ? 1.0f : INFINITY;
    }
    for (k = 0; k < NSETS; k++) {
        int n = 1 + (int)(tu_next(&st) % 4);
        len += (size_t)sprintf(text + len, "s%zu", k);
        for (j = 0; j < n; j++) {
            do
                i = (int)(tu_next(&st) % (RW * RH));
            while (!rc->open[i]);
            len += (size_t)sprintf(text + len, " %d,%d", i % RW, i / RW);
        }
        text[len++] = '\n';
    }
    text[len] = '\0';
    cr_assert_eq(read_sets(text, &rc->grid, &rc->sets, &err), FF_OK, "%s", err.msg);
    free(text);
}

static void random_free(random_case *rc)
{
    ff_goal_sets_free(&rc->sets);
    ff_grid_free(&rc->grid);
}

/* What emit saw. */
typedef struct {
    const random_case *rc;
    size_t calls;
    size_t stop_at;           /* fail on this call (index), or SIZE_MAX */
    double *fields;           /* NSETS * RW * RH distances, as emitted */
    const double *buffer[64]; /* distinct distance buffers seen */
    size_t nbuffers;
    uint64_t ids[NSETS];
} seen;

static ff_status record(void *ctx, size_t index, const ff_field *f, ff_error *err)
{
    seen *s = ctx;
    size_t k;

    cr_assert_eq(index, s->calls, "set %zu handed over out of order (call %zu)", index, s->calls);
    s->calls++;
    if (index == s->stop_at)
        return ff_error_set(err, FF_EIO, "out", 0, 0, "stop here");
    cr_assert_str_eq(f->name, s->rc->sets.set[index].name);
    cr_assert_eq(f->grid.ngoals, s->rc->sets.set[index].ngoals);
    cr_assert_eq(f->grid.w, RW);
    memcpy(s->fields + index * RW * RH, f->distance, RW * RH * sizeof *f->distance);
    s->ids[index] = f->distance_id;
    for (k = 0; k < s->nbuffers && s->buffer[k] != f->distance; k++)
        ;
    if (k == s->nbuffers && s->nbuffers < 64)
        s->buffer[s->nbuffers++] = f->distance;
    return FF_OK;
}

static void run_batch(const random_case *rc, int threads, size_t window, seen *s)
{
    ff_error err;

    memset(s, 0, sizeof *s);
    s->rc = rc;
    s->stop_at = (size_t)-1;
    s->fields = malloc(NSETS * RW * RH * sizeof *s->fields);
    cr_assert_not_null(s->fields);
    ff_error_clear(&err);
    cr_assert_eq(ff_batch_build(&rc->grid, &rc->sets, threads, window, record, s, &err), FF_OK,
                 "%s", err.msg);
    cr_assert_eq(s->calls, NSETS);
}

Test(batch, fields_match_brute_force)
{
    random_case rc;
    seen s;
    double want[RW * RH];
    size_t k, i;

    random_sets(&rc, 7);
    run_batch(&rc, 1, 0, &s);
    for (k = 0; k < NSETS; k++) {
        brute_force(rc.open, RW, RH, rc.sets.set[k].goals, rc.sets.set[k].ngoals, want);
        for (i = 0; i < RW * RH; i++) {
            double got = s.fields[k * RW * RH + i];
            if (isinf(want[i]))
                cr_assert(isinf(got), "set %zu cell %zu: %g, want inf", k, i, got);
            else
                cr_assert_float_eq(got, want[i], 1e-9, "set %zu cell %zu", k, i);
        }
    }
    free(s.fields);
    random_free(&rc);
}

Test(batch, same_fields_for_any_threads_and_window)
{
    static const struct { int threads; size_t window; } runs[] = {
        { 2, 0 }, { 2, 2 }, { 3, 1 }, { 4, 5 }, { 8, 0 }, { 64, 0 }, { 2, 1000 },
    };
    random_case rc;
    seen one, many;
    size_t r;

    random_sets(&rc, 99);
    run_batch(&rc, 1, 0, &one);
    cr_expect_eq(one.nbuffers, 1, "one thread needs one buffer");
    for (r = 0; r < sizeof runs / sizeof *runs; r++) {
        size_t window = runs[r].window ? runs[r].window : 2 * (size_t)runs[r].threads;
        size_t threads = (size_t)runs[r].threads;
        if (window < threads)
            window = threads;
        run_batch(&rc, runs[r].threads, runs[r].window, &many);
        cr_expect(memcmp(one.fields, many.fields, NSETS * RW * RH * sizeof *one.fields) == 0,
                  "-j %d window %zu: other distances", runs[r].threads, runs[r].window);
        cr_expect(memcmp(one.ids, many.ids, sizeof one.ids) == 0,
                  "-j %d window %zu: other ids", runs[r].threads, runs[r].window);
        cr_expect_leq(many.nbuffers, window < NSETS ? window : NSETS,
                      "-j %d window %zu: %zu buffers in use", runs[r].threads, runs[r].window,
                      many.nbuffers);
        free(many.fields);
    }
    free(one.fields);
    random_free(&rc);
}

/* Goals in any order, repeats included, come out ascending and once each:
 * the set of cells they name. */
Test(batch, goals_sorted_once)
{
    static const uint32_t want[] = { 0, 1, 2, 3, 9, 14 };
    ff_goal_sets sets;
    ff_grid g;
    ff_error err;
    size_t k;

    ff_grid_init(&g);
    cr_assert_eq(ff_grid_alloc(&g, 5, 3, 0, "t", &err), FF_OK);
    for (k = 0; k < 15; k++)
        g.cost[k] = 1.0f;
    cr_assert_eq(read_sets("a 4,2 3,0 2,0 4,1 1,0 2,0 0,0 4,2 3 0\n", &g, &sets, &err), FF_OK, "%s",
                 err.msg);
    cr_assert_eq(sets.set[0].ngoals, sizeof want / sizeof *want);
    for (k = 0; k < sizeof want / sizeof *want; k++)
        cr_expect_eq(sets.set[0].goals[k], want[k], "goal %zu: %u, want %u", k, sets.set[0].goals[k],
                     want[k]);
    ff_goal_sets_free(&sets);
    ff_grid_free(&g);
}

/* Counts the calls and the distinct buffers. */
static ff_status count_buffers(void *ctx, size_t index, const ff_field *f, ff_error *err)
{
    seen *s = ctx;
    size_t k;

    (void)err;
    cr_assert_eq(index, s->calls);
    s->calls++;
    for (k = 0; k < s->nbuffers && s->buffer[k] != f->distance; k++)
        ;
    if (k == s->nbuffers && s->nbuffers < 64)
        s->buffer[s->nbuffers++] = f->distance;
    return FF_OK;
}

/* A small map is built on the calling thread whatever the threads asked:
 * one buffer. */
Test(batch, small_map_one_thread)
{
    ff_goal_sets sets;
    ff_grid g;
    ff_error err;
    seen s;
    int threads;

    ff_grid_init(&g);
    cr_assert_eq(ff_grid_alloc(&g, 31, 33, 0, "t", &err), FF_OK);  /* 1023 cells */
    for (size_t i = 0; i < 31 * 33; i++)
        g.cost[i] = 1.0f;
    cr_assert_eq(read_sets("a 0,0\nb 30,32\nc 5,5 6,6\n", &g, &sets, &err), FF_OK, "%s", err.msg);
    for (threads = 1; threads <= 1024; threads *= 32) {
        memset(&s, 0, sizeof s);
        s.stop_at = (size_t)-1;
        cr_assert_eq(ff_batch_build(&g, &sets, threads, 0, count_buffers, &s, &err), FF_OK);
        cr_expect_eq(s.calls, 3);
        cr_expect_eq(s.nbuffers, 1, "-j %d: %zu buffers on a map of 1023 cells", threads, s.nbuffers);
    }
    ff_goal_sets_free(&sets);
    ff_grid_free(&g);
}

Test(batch, emit_failure_stops)
{
    random_case rc;
    ff_error err;
    seen s;
    int threads;

    random_sets(&rc, 3);
    for (threads = 1; threads <= 4; threads++) {
        memset(&s, 0, sizeof s);
        s.rc = &rc;
        s.stop_at = 5;
        s.fields = malloc(NSETS * RW * RH * sizeof *s.fields);
        cr_assert_not_null(s.fields);
        cr_expect_eq(ff_batch_build(&rc.grid, &rc.sets, threads, 0, record, &s, &err), FF_EIO);
        cr_expect_str_eq(err.msg, "stop here");
        cr_expect_eq(s.calls, 6, "-j %d: emit called %zu times after a failure", threads,
                     s.calls);
        free(s.fields);
    }
    random_free(&rc);
}

/* ---- choosing a field of a multi-field stream ---- */

/* A stream of fields named by names (a space-separated list, "" for an
 * unnamed field is written as "_"), each a 2 x 1 map whose distance is
 * its position in the list. */
static FILE *multi_stream(const char *names, char **buf, size_t *len)
{
    FILE *f = open_memstream(buf, len);
    char list[256], *tok, *save;
    int k = 0;

    cr_assert_not_null(f);
    snprintf(list, sizeof list, "%s", names);
    for (tok = strtok_r(list, " ", &save); tok; tok = strtok_r(NULL, " ", &save), k++) {
        ff_field fl;
        ff_error err;
        ff_field_init(&fl);
        cr_assert_eq(ff_grid_alloc(&fl.grid, 2, 1, 0, "t", &err), FF_OK);
        fl.grid.cost[0] = fl.grid.cost[1] = 1;
        cr_assert_eq(ff_grid_add_goal(&fl.grid, 0, 0, "t", 0, 0, &err), FF_OK);
        fl.distance = malloc(2 * sizeof *fl.distance);
        fl.distance[0] = 0;
        fl.distance[1] = k;
        if (strcmp(tok, "_") != 0)
            snprintf(fl.name, sizeof fl.name, "%s", tok);
        ff_field_update_ids(&fl);
        cr_assert_eq(ff_field_write(f, &fl, k % 2, &err), FF_OK);
        ff_field_free(&fl);
    }
    fclose(f);
    return fmemopen(*buf, *len, "rb");
}

static ff_status select_in(const char *names, const char *want, ff_field *out, ff_error *err)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = multi_stream(names, &buf, &len);
    ff_reader r;
    ff_status st;

    ff_reader_init(&r, f, "fields.ff");
    ff_error_clear(err);
    st = ff_field_select(&r, want, out, err);
    fclose(f);
    free(buf);
    return st;
}

Test(fieldsel, select_by_name)
{
    ff_field f;
    ff_error err;

    cr_assert_eq(select_in("a b c", "b", &f, &err), FF_OK, "%s", err.msg);
    cr_expect_str_eq(f.name, "b");
    cr_expect_eq(f.distance[1], 1.0, "the second field of the stream");
    ff_field_free(&f);
    cr_assert_eq(select_in("a b c", "c", &f, &err), FF_OK, "%s", err.msg);
    cr_expect_eq(f.distance[1], 2.0);
    ff_field_free(&f);
    cr_assert_eq(select_in("_", NULL, &f, &err), FF_OK, "%s", err.msg);
    cr_expect_str_eq(f.name, "");
    ff_field_free(&f);
    cr_assert_eq(select_in("only", NULL, &f, &err), FF_OK, "%s", err.msg);
    cr_expect_str_eq(f.name, "only");
    ff_field_free(&f);
}

Test(fieldsel, refusals)
{
    ff_field f;
    ff_error err;

    cr_expect_eq(select_in("a b c", NULL, &f, &err), FF_EINPUT);
    cr_expect_str_eq(err.msg, "the stream holds 3 fields (a, b, c): choose one with --name");
    cr_expect_str_eq(err.file, "fields.ff");
    cr_expect_null(f.distance);
    cr_expect_eq(select_in("a _", NULL, &f, &err), FF_EINPUT);
    cr_expect_str_eq(err.msg, "the stream holds 2 fields (a, -): choose one with --name");
    cr_expect_eq(select_in("a b c", "d", &f, &err), FF_EINPUT);
    cr_expect_str_eq(err.msg, "no field named 'd' (names: a, b, c)");
    cr_expect_eq(select_in("_", "a", &f, &err), FF_EINPUT);
    cr_expect_str_eq(err.msg, "no field named 'a' (names: -)");
    cr_expect_eq(select_in("a b a c", "a", &f, &err), FF_EINPUT);
    cr_expect_str_eq(err.msg, "fields 1 and 3 are both named 'a': the choice is ambiguous");
    cr_expect_null(f.distance);
    cr_expect_eq(select_in("a b b", "a", &f, &err), FF_OK, "a repeat of another name is fine");
    ff_field_free(&f);
}

Test(fieldsel, long_name_list_is_cut)
{
    char names[2048] = "";
    size_t len = 0;
    ff_field f;
    ff_error err;
    int k;

    for (k = 0; k < 100; k++)
        len += (size_t)sprintf(names + len, "%sname%02d", k ? " " : "", k);
    cr_assert_eq(select_in(names, "zz", &f, &err), FF_EINPUT);
    cr_expect(strncmp(err.msg, "no field named 'zz' (names: name00, name01, ", 44) == 0, "%s",
              err.msg);
    cr_expect(strstr(err.msg, ", ...)") != NULL, "%s", err.msg);
    cr_expect_lt(strlen(err.msg), 300);
}

Test(fieldsel, empty_and_broken_input)
{
    ff_field f;
    ff_error err;
    ff_reader r;
    FILE *in = tu_string_file("");
    char out[64] = "";
    FILE *o = fmemopen(out, sizeof out, "w");

    ff_reader_init(&r, in, "-");
    cr_expect_eq(ff_field_select(&r, NULL, &f, &err), FF_EINPUT);
    cr_expect_str_eq(err.msg, "empty input: no ff stream");
    fclose(in);
    in = tu_string_file("ff 1\nsize 1 1\nchannel cost f32\nencoding text\nend\n1\nff 2\n");
    ff_reader_init(&r, in, "-");
    cr_expect_eq(ff_field_list(&r, o, &err), FF_EINPUT);
    cr_expect(strstr(err.msg, "bad magic") != NULL, "%s", err.msg);
    fclose(o);
    cr_expect_str_eq(out, "", "nothing listed from a broken stream");
    fclose(in);
}

Test(fieldsel, list)
{
    char *buf = NULL, *out = NULL;
    size_t len = 0, outlen = 0;
    FILE *f = multi_stream("gate_a _ gate.b", &buf, &len);
    FILE *o = open_memstream(&out, &outlen);
    ff_reader r;
    ff_error err;

    ff_reader_init(&r, f, "fields.ff");
    cr_assert_eq(ff_field_list(&r, o, &err), FF_OK, "%s", err.msg);
    fclose(o);
    cr_expect_str_eq(out, "gate_a\n-\ngate.b\n");
    fclose(f);
    free(buf);
    free(out);
}
