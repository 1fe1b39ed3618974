/* test_grow.c - ff_grow against its definition: the capacity is the
 * smallest max(cap, min_cap) * 2^k at or above need, the elements kept,
 * and an overflowing size refused with the array untouched. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdlib.h>

#include "grow.h"

Test(grow, doubles_to_the_first_power_at_or_above_need)
{
    size_t cap = 0, need, want;
    uint32_t *a = NULL, *b;

    for (need = 1; need <= 1000; need++) {
        size_t before = cap;
        b = ff_grow(a, &cap, need, sizeof *a, 16);
        cr_assert_not_null(b);
        a = b;
        if (need <= before) {
            cr_assert_eq(cap, before);
        } else {
            want = before < 16 ? 16 : before;
            while (want < need)
                want *= 2;
            cr_assert_eq(cap, want, "need %zu: cap %zu, want %zu", need, cap, want);
        }
        a[need - 1] = (uint32_t)need * 7;
    }
    for (need = 1; need <= 1000; need++)
        cr_assert_eq(a[need - 1], (uint32_t)need * 7);
    free(a);
}

Test(grow, enough_room_returns_the_same_array)
{
    size_t cap = 8;
    int *a = malloc(8 * sizeof *a);
    cr_assert_eq(ff_grow(a, &cap, 8, sizeof *a, 1), a);
    cr_assert_eq(cap, 8);
    free(a);
}

Test(grow, overflow_refused_untouched)
{
    size_t cap = 4;
    double *a = malloc(4 * sizeof *a);
    cr_assert_null(ff_grow(a, &cap, SIZE_MAX / 4, sizeof *a, 1));
    cr_assert_eq(cap, 4);
    cr_assert_null(ff_grow(a, &cap, SIZE_MAX, 1 + SIZE_MAX / 2, 1));
    cr_assert_eq(cap, 4);
    a[3] = 1.5;
    free(a);
}

Test(grow, zero_capacity_and_zero_min)
{
    size_t cap = 0;
    char *a = ff_grow(NULL, &cap, 3, 1, 0);
    cr_assert_not_null(a);
    cr_assert_eq(cap, 4);
    free(a);
}
