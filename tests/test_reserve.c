/* test_reserve.c - reservations worked by hand: two agents for one cell,
 * the grant order (priority, then wait, then id, never the order of the
 * requests), edge swaps, diagonal crossings, following into a cell being
 * left, a large footprint, retrying the other optimal directions, and
 * wait-for cycles against a hand-drawn graph. */
#include "testutil.h"

#include <criterion/criterion.h>

#include "reserve.h"

#define W 10
#define H 10

static uint32_t at(int x, int y)
{
    return (uint32_t)(y * W + x);
}

static ff_reserve_request want(uint32_t id, int x, int y, int nx, int ny)
{
    ff_reserve_request q;
    memset(&q, 0, sizeof q);
    q.id = id;
    q.cell = at(x, y);
    q.ncand = 1;
    q.cand[0] = at(nx, ny);
    return q;
}

static ff_reserve_request still(uint32_t id, int x, int y)
{
    ff_reserve_request q;
    memset(&q, 0, sizeof q);
    q.id = id;
    q.cell = at(x, y);
    return q;
}

static void grant(ff_reserve_request *q, size_t n)
{
    ff_reserver r;
    ff_error err;
    cr_assert_eq(ff_reserver_init(&r, W, H, &err), FF_OK);
    cr_assert_eq(ff_reserve_grant(&r, q, n, &err), FF_OK);
    ff_reserver_free(&r);
}

Test(reserve, two_agents_for_one_cell_the_lower_id_wins)
{
    /* 7 from the west and 3 from the east both want 5,5; given 7 first. */
    ff_reserve_request q[2] = { want(7, 4, 5, 5, 5), want(3, 6, 5, 5, 5) };
    grant(q, 2);
    cr_expect_eq(q[1].granted, 0);
    cr_expect_eq(q[0].granted, -1);
    cr_expect_eq(q[0].blocker, 1u, "7 waits on the request of 3");
}

Test(reserve, priority_comes_before_id)
{
    ff_reserve_request q[2] = { want(7, 4, 5, 5, 5), want(3, 6, 5, 5, 5) };
    q[0].priority = -1;
    grant(q, 2);
    cr_expect_eq(q[0].granted, 0);
    cr_expect_eq(q[1].granted, -1);
}

Test(reserve, longer_wait_comes_before_id_but_after_priority)
{
    ff_reserve_request q[3] = { want(1, 4, 5, 5, 5), want(2, 6, 5, 5, 5), want(9, 5, 4, 5, 5) };
    q[1].waited = 3;
    q[2].waited = 9;
    q[2].priority = 1;  /* waited longest, but a worse priority */
    grant(q, 3);
    cr_expect_eq(q[1].granted, 0, "id 2 waited longer than id 1");
    cr_expect_eq(q[0].granted, -1);
    cr_expect_eq(q[2].granted, -1);
}

Test(reserve, request_order_changes_nothing)
{
    /* Every permutation of three contenders grants the same one. */
    static const int perm[6][3] = { {0,1,2}, {0,2,1}, {1,0,2}, {1,2,0}, {2,0,1}, {2,1,0} };
    int p, k;
    for (p = 0; p < 6; p++) {
        ff_reserve_request base[3] = { want(5, 4, 5, 5, 5), want(8, 6, 5, 5, 5), want(2, 5, 6, 5, 5) };
        ff_reserve_request q[3];
        base[0].waited = 2;
        base[2].waited = 1;
        for (k = 0; k < 3; k++)
            q[k] = base[perm[p][k]];
        grant(q, 3);
        for (k = 0; k < 3; k++)
            cr_expect_eq(q[k].granted, q[k].id == 5 ? 0 : -1, "permutation %d, id %u", p, q[k].id);
    }
}

Test(reserve, edge_swap_refused)
{
    ff_reserve_request q[2] = { want(1, 4, 5, 5, 5), want(2, 5, 5, 4, 5) };
    grant(q, 2);
    cr_expect_eq(q[0].granted, -1);
    cr_expect_eq(q[1].granted, -1);
    cr_expect_eq(q[0].blocker, 1u);
    cr_expect_eq(q[1].blocker, 0u);
}

Test(reserve, following_into_a_cell_being_left_is_granted)
{
    /* 1 follows 2 east along a row: both move, even when 1 asks first. */
    ff_reserve_request q[2] = { want(1, 4, 5, 5, 5), want(2, 5, 5, 6, 5) };
    grant(q, 2);
    cr_expect_eq(q[0].granted, 0);
    cr_expect_eq(q[1].granted, 0);
}

Test(reserve, cell_of_one_that_stays_is_refused)
{
    ff_reserve_request q[2] = { want(1, 4, 5, 5, 5), still(2, 5, 5) };
    grant(q, 2);
    cr_expect_eq(q[0].granted, -1);
    cr_expect_eq(q[0].blocker, 1u);
}

Test(reserve, diagonal_crossing_refused)
{
    /* 1: 4,4 -> 5,5 and 2: 5,4 -> 4,5 cross at the corner 5,5. */
    ff_reserve_request q[2] = { want(1, 4, 4, 5, 5), want(2, 5, 4, 4, 5) };
    grant(q, 2);
    cr_expect_eq(q[0].granted, 0);
    cr_expect_eq(q[1].granted, -1);
    cr_expect_eq(q[1].blocker, 0u);
}

Test(reserve, parallel_diagonals_granted)
{
    ff_reserve_request q[2] = { want(1, 4, 4, 5, 5), want(2, 5, 4, 6, 5) };
    grant(q, 2);
    cr_expect_eq(q[0].granted, 0);
    cr_expect_eq(q[1].granted, 0);
}

Test(reserve, refused_best_direction_takes_a_tie)
{
    /* 1 wants 5,5 (held by 2, which stays), or else its tie 5,4. */
    ff_reserve_request q[2] = { want(1, 4, 5, 5, 5), still(2, 5, 5) };
    q[0].ncand = 2;
    q[0].cand[1] = at(5, 4);
    grant(q, 2);
    cr_expect_eq(q[0].granted, 1);
}

Test(reserve, retry_after_a_refusal_succeeds_when_the_cell_is_free)
{
    ff_reserver r;
    ff_error err;
    ff_reserve_request q[2] = { want(1, 4, 5, 5, 5), want(2, 6, 5, 5, 5) };
    cr_assert_eq(ff_reserver_init(&r, W, H, &err), FF_OK);
    cr_assert_eq(ff_reserve_grant(&r, q, 2, &err), FF_OK);
    cr_expect_eq(q[0].granted, 0);
    cr_expect_eq(q[1].granted, -1);
    /* Next tick 1 stands on 5,5 and moves on; 2 asks again. */
    q[0] = want(1, 5, 5, 5, 4);
    q[1] = want(2, 6, 5, 5, 5);
    q[1].waited = 1;
    cr_assert_eq(ff_reserve_grant(&r, q, 2, &err), FF_OK);
    cr_expect_eq(q[0].granted, 0);
    cr_expect_eq(q[1].granted, 0);
    cr_expect_eq(ff_reserve_holder(&r, at(5, 5)), 1u);
    cr_expect_eq(ff_reserve_holder(&r, at(5, 4)), 0u);
    cr_expect_eq(ff_reserve_holder(&r, at(6, 5)), FF_RESERVE_NONE);
    ff_reserver_free(&r);
}

Test(reserve, large_footprint)
{
    /* A 3 x 3 agent at 4,4 (cells 3..5) moving east needs cells 4..6 of
     * rows 3..5: 2 standing at 6,3 is in the way, 3 at 7,4 is not. */
    ff_reserve_request q[3] = { want(1, 4, 4, 5, 4), still(2, 6, 3), still(3, 7, 4) };
    q[0].half = 1;
    grant(q, 3);
    cr_expect_eq(q[0].granted, -1);
    cr_expect_eq(q[0].blocker, 1u);
    q[1] = still(2, 7, 2);
    grant(q, 3);
    cr_expect_eq(q[0].granted, 0);
    /* A small agent may not step into a cell the large one covers. */
    {
        ff_reserve_request s[2] = { still(1, 4, 4), want(2, 6, 5, 5, 5) };
        s[0].half = 1;
        grant(s, 2);
        cr_expect_eq(s[1].granted, -1);
    }
}

Test(reserve, claim_takes_only_free_footprints)
{
    ff_reserver r;
    ff_error err;
    ff_reserve_request q[1] = { still(1, 4, 4) };
    cr_assert_eq(ff_reserver_init(&r, W, H, &err), FF_OK);
    cr_assert_eq(ff_reserve_grant(&r, q, 1, &err), FF_OK);
    cr_expect_eq(ff_reserve_claim(&r, at(4, 4), 0, 7), 0);
    cr_expect_eq(ff_reserve_claim(&r, at(5, 5), 1, 7), 0, "its 3 x 3 covers 4,4");
    cr_expect_eq(ff_reserve_claim(&r, at(6, 6), 1, 7), 1);
    cr_expect_eq(ff_reserve_holder(&r, at(7, 7)), 7u);
    ff_reserver_free(&r);
}

Test(reserve, wait_for_cycles_by_hand)
{
    /* 0 -> 1 -> 2 -> 0 is a cycle; 3 -> 0 waits on it; 4 <-> 5 is one;
     * 6 -> 7 -> none is a chain; 8 -> 8 waits on itself. */
    uint32_t on[9] = { 1, 2, 0, 0, 5, 4, 7, FF_RESERVE_NONE, 8 };
    int32_t cyc[9];
    uint8_t scratch[9];
    size_t n = ff_reserve_cycles(on, 9, cyc, scratch);
    cr_expect_eq(n, 3);
    cr_expect(cyc[0] >= 0 && cyc[0] == cyc[1] && cyc[1] == cyc[2]);
    cr_expect_eq(cyc[3], -1);
    cr_expect(cyc[4] >= 0 && cyc[4] == cyc[5] && cyc[4] != cyc[0]);
    cr_expect_eq(cyc[6], -1);
    cr_expect_eq(cyc[7], -1);
    cr_expect(cyc[8] >= 0 && cyc[8] != cyc[0] && cyc[8] != cyc[4]);
}

Test(reserve, rotation_of_three_stays_put)
{
    /* Three agents each wanting the next one's cell round a square: none
     * can go first, so all stay (no two in one cell). */
    ff_reserve_request q[3] = { want(1, 4, 4, 5, 4), want(2, 5, 4, 5, 5), want(3, 5, 5, 4, 4) };
    grant(q, 3);
    cr_expect_eq(q[0].granted, -1);
    cr_expect_eq(q[1].granted, -1);
    cr_expect_eq(q[2].granted, -1);
}

Test(reserve, a_queue_moves_together_whatever_the_ids)
{
    /* Five in a row heading east, the front one with the highest id:
     * each waits on the one ahead, and all move in the same tick. */
    ff_reserve_request q[5];
    int k;
    for (k = 0; k < 5; k++)
        q[k] = want((uint32_t)(k + 1), 2 + k, 5, 3 + k, 5);
    grant(q, 5);
    for (k = 0; k < 5; k++)
        cr_expect_eq(q[k].granted, 0, "agent %d", k + 1);
}

Test(reserve, a_cell_being_left_goes_to_the_first_in_order)
{
    /* 5 leaves 5,5 northward; 1 (from the west) and 3 (from the south)
     * both wait for it: 1 comes first in the order and gets it. */
    ff_reserve_request q[3] = { want(3, 5, 6, 5, 5), want(5, 5, 5, 5, 4), want(1, 4, 5, 5, 5) };
    grant(q, 3);
    cr_expect_eq(q[1].granted, 0);
    cr_expect_eq(q[2].granted, 0);
    cr_expect_eq(q[0].granted, -1);
    cr_expect_eq(q[0].blocker, 2u, "3 is refused by the reservation of 1");
}
