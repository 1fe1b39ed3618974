/* siminput.h - what ffsim runs on (man 1 ffsim): the field of an ff
 * stream, or a map of any format ffbuild reads when the scenario's agents
 * bring their goals (a MAPF .scen, classes with goal lines), so that no
 * field need be built first.
 */
#ifndef FF_SIMINPUT_H
#define FF_SIMINPUT_H

#include <stdint.h>

#include "scenario.h"
#include "stream.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Read ffsim's FIELD at path ("-": standard input): an ff stream's field,
 * its only one or the one named name (as ff_field_select chooses), which
 * must carry directions (an any-angle field: its vector channel); or,
 * when the input starts as a map (ff_map_sniff:
 * a file, not a pipe), the map, read as ff_map_read reads it (at most
 * max_cells cells, 0 for the default), into out->grid alone with
 * *is_map 1.  On failure out is empty. */
ff_status ff_sim_input_read(const char *path, const char *name, uint64_t max_cells,
                            ff_field *out, int *is_map, ff_error *err);

/* A map has no field to follow: every agent of s that enters by the last
 * tick needs a goal, its own or its class's, unless the map has goal
 * cells (then the classes without goals head for them).  FF_EINPUT at
 * path naming the first class that has none and its first such agent,
 * and pointing to ffbuild; else FF_OK. */
ff_status ff_sim_input_check_goals(const ff_scenario *s, const ff_grid *map, const char *path,
                                   ff_error *err);

#ifdef __cplusplus
}
#endif

#endif
