/* test_changes.c - the change list of ffbuild --update: what a good file
 * reads to, and a table of refused lines with their place. */
#include "testutil.h"

#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "changes.h"

Test(changes, reads_closes_costs_comments_and_blank_lines)
{
    FILE *f = tu_string_file("# doors\n\nclose 1,2,3,4\n\tcost 0,0,0,0 2.5 # mud\r\n"
                             "cost 5,5,6,7 0\n");
    ff_change_list l;
    ff_error err;

    cr_assert_eq(ff_changes_read(f, "c", &l, &err), FF_OK, "%s", err.msg);
    fclose(f);
    cr_assert_eq(l.n, 3);
    cr_assert_eq(l.change[0].kind, FF_CHANGE_CLOSE);
    cr_assert(l.change[0].x0 == 1 && l.change[0].y0 == 2 && l.change[0].x1 == 3 &&
              l.change[0].y1 == 4);
    cr_assert_eq(l.change[0].line, 3);
    cr_assert_eq(l.change[0].col, 7);
    cr_assert_eq(l.change[1].kind, FF_CHANGE_COST);
    cr_assert_eq(l.change[1].cost, 2.5f);
    cr_assert_eq(l.change[1].line, 4);
    cr_assert_eq(l.change[1].col, 7);
    cr_assert_eq(l.change[2].cost, 0.0f);
    ff_changes_free(&l);
}

Test(changes, an_empty_file_is_an_empty_list)
{
    FILE *f = tu_string_file("# nothing\n");
    ff_change_list l;
    ff_error err;

    cr_assert_eq(ff_changes_read(f, "c", &l, &err), FF_OK);
    fclose(f);
    cr_assert_eq(l.n, 0);
    ff_changes_free(&l);
}

/* Arrays, not pointers: Criterion runs each test in a new process. */
typedef struct {
    char text[48];
    long line, col;
    char msg[40];
} bad_case;

ParameterizedTestParameters(changes, refused)
{
    static bad_case cases[] = {
        { "open 1,1,1,1\n", 1, 1, "unknown change 'open'" },
        { "close\n", 1, 6, "close wants a rectangle" },
        { "close 1,1,1\n", 1, 7, "bad rectangle '1,1,1'" },
        { "close 1,1,1,1,1\n", 1, 7, "bad rectangle" },
        { "close 1,,1,1\n", 1, 7, "bad rectangle" },
        { "close 1.5,1,2,2\n", 1, 7, "bad rectangle" },
        { "close 2147483648,0,0,0\n", 1, 7, "bad rectangle" },
        { "close 2,0,1,0\n", 1, 7, "is empty" },
        { "close 0,2,0,1\n", 1, 7, "is empty" },
        { "cost 0,0,0,0\n", 1, 13, "cost wants a cost" },
        { "cost 0,0,0,0 -1\n", 1, 14, "bad cost '-1'" },
        { "cost 0,0,0,0 inf\n", 1, 14, "bad cost 'inf'" },
        { "cost 0,0,0,0 nan\n", 1, 14, "bad cost 'nan'" },
        { "cost 0,0,0,0 1e39\n", 1, 14, "bad cost '1e39'" },
        { "cost 0,0,0,0 1x\n", 1, 14, "bad cost '1x'" },
        { "close 0,0,0,0 1\n", 1, 15, "unexpected '1'" },
        { "close 0,0,0,0\nclose 0,0,0,0\nfoo\n", 3, 1, "unknown change 'foo'" },
    };
    return cr_make_param_array(bad_case, cases, sizeof cases / sizeof cases[0]);
}

ParameterizedTest(bad_case *c, changes, refused)
{
    FILE *f = tu_string_file(c->text);
    ff_change_list l;
    ff_error err;

    cr_assert_eq(ff_changes_read(f, "c", &l, &err), FF_EINPUT, "%s", c->text);
    fclose(f);
    cr_assert_eq(l.n, 0);
    cr_assert_null(l.change);
    cr_assert_eq(err.line, c->line, "%s: line %ld", c->text, err.line);
    cr_assert_eq(err.col, c->col, "%s: col %ld (%s)", c->text, err.col, err.msg);
    cr_assert(strstr(err.msg, c->msg), "%s: '%s'", c->text, err.msg);
}
