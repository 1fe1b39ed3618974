/* test_reserve.c - wait-for cycles against a hand-drawn graph (the grant
 * is the crowd's: see test_ffsim.sh's reservation crowds). */
#include "testutil.h"

#include <criterion/criterion.h>

#include "reserve.h"

Test(reserve, wait_for_cycles_by_hand)
{
    /* 0 -> 1 -> 2 -> 0 is a cycle; 3 -> 0 waits on it; 4 <-> 5 is one;
     * 6 -> 7 -> none is a chain; 8 -> 8 waits on itself, no cycle (a lone
     * agent is no deadlock, issue 33). */
    uint32_t on[9] = { 1, 2, 0, 0, 5, 4, 7, FF_RESERVE_NONE, 8 };
    int32_t cyc[9];
    uint8_t scratch[9];
    size_t n = ff_reserve_cycles(on, 9, cyc, scratch);
    int32_t want[9] = { 0, 0, 0, -1, 1, 1, -1, -1, -1 };  /* numbered by lowest node */
    int k;
    cr_expect_eq(n, 2);
    for (k = 0; k < 9; k++)
        cr_expect_eq(cyc[k], want[k], "node %d", k);
}
