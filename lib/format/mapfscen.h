/* mapfscen.h - the Moving AI multi-agent scenario format (.scen) of the
 * MAPF benchmark (Stern et al. 2019): a line 'version 1', then one line an
 * agent of nine fields separated by tabs or spaces: bucket, map name, map
 * width, map height, start x, start y, goal x, goal y, optimal length.
 * Line k after the version line (from 0) is agent k; cells are whole
 * numbers, x east and y south from the top-left cell (man 5 ffsim,
 * "scen").
 */
#ifndef FF_MAPFSCEN_H
#define FF_MAPFSCEN_H

#include <stdint.h>
#include <stdio.h>

#include "fferror.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    int32_t width, height;   /* the map's size the line gives, > 0 */
    int32_t sx, sy, gx, gy;  /* start and goal cells, >= 0 */
    long line;               /* the line it was read from ... */
    long start_col, goal_col;/* ... and the columns of start x, goal x */
} ff_mapf_agent;

/* Read the first max agents of the .scen file f (name for messages) into
 * *agents (malloc'd, the caller frees it) and their count into *n (fewer
 * when the file has fewer).  Errors are FF_EINPUT at the line and column
 * of the offending field, FF_ENOMEM, FF_EIO; on failure *agents is NULL. */
ff_status ff_mapf_scen_read(FILE *f, const char *name, size_t max, ff_mapf_agent **agents,
                            size_t *n, ff_error *err);

/* Open the .scen file a file of path base names: file as given when
 * absolute or when base has no folder, else in base's folder; *path is
 * that path (malloc'd, the caller frees it; NULL when out of memory).
 * Only a regular file opens, without blocking (ff_file_open_regular):
 * NULL otherwise, with why filled (why->msg the reason, why->status
 * FF_EINPUT or FF_EIO). */
FILE *ff_mapf_scen_open(const char *base, const char *file, char **path, ff_error *why);

#ifdef __cplusplus
}
#endif

#endif
