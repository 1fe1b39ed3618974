/* fuzz_goalsets.c - libFuzzer target: the goal sets of ffbuild --goal-sets
 * (ff_goal_sets_read) on a fixed 8 x 4 map with walls.  Every set read
 * keeps its promises (a good name, used once; goals open, inside the map,
 * ascending without repeats; lines growing); a refusal is FF_EINPUT with
 * a line and a one-line reason, the sets left empty.  Lines are capped
 * at 4,095 bytes: no input makes the reader hold more. */
#define _POSIX_C_SOURCE 200809L
#include "batch.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char map_text[] = "ffmap 1\nmap\n........\n..@@....\n....@...\n........\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static ff_grid g;
    static int ready;
    FILE *f = open_bytes(data, size);
    ff_goal_sets sets;
    ff_error err;
    ff_status st;
    size_t k, j;
    long last = 0;

    if (!ready) {
        fuzz_fixed_map(map_text, &g);
        ready = 1;
    }
    if (!f)
        abort();
    ff_error_clear(&err);
    st = ff_goal_sets_read(f, "fuzz", &g, &sets, &err);
    fclose(f);
    if (st != FF_OK) {
        FUZZ_CHECK(st == FF_EINPUT && sets.nsets == 0 && !sets.set);
        FUZZ_CHECK(err.msg[0] != '\0' && !strchr(err.msg, '\n'));
        return 0;
    }
    FUZZ_CHECK(sets.nsets >= 1);
    for (k = 0; k < sets.nsets; k++) {
        const ff_goal_set *s = &sets.set[k];
        FUZZ_CHECK(ff_set_name_ok(s->name) && s->line > last && s->ngoals >= 1);
        last = s->line;
        for (j = 0; j < k; j++)
            FUZZ_CHECK(strcmp(sets.set[j].name, s->name) != 0);
        for (j = 0; j < s->ngoals; j++) {
            FUZZ_CHECK(s->goals[j] < (uint32_t)g.w * (uint32_t)g.h && ff_grid_open(&g, s->goals[j]));
            FUZZ_CHECK(j == 0 || s->goals[j - 1] < s->goals[j]);
        }
    }
    ff_goal_sets_free(&sets);
    return 0;
}
