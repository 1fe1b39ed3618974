/* update.h - a field brought up to date with a change list (man 1
 * ffbuild, --update): the field's map changed as the list says, its
 * distances repaired (repair.h) to what a full build of the changed map
 * with the same goals and rules gives.
 *
 * A field of clearance radius R carries its map already cleared, not the
 * map before: a closed rectangle closes, besides its cells, every cell
 * whose center is nearer than R to it (as the clearance of the changed map
 * would), but a cell closed there cannot be given a cost, since whether
 * it was a wall or was closed by the clearance is not in the stream.
 */
#ifndef FF_UPDATE_H
#define FF_UPDATE_H

#include "changes.h"
#include "repair.h"
#include "stream.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Apply the changes of l (read from the file name) one after another to
 * field f (its grid and distance; f->distance must be there), repairing
 * the distance, with the scratch r; then set f's ids again.  The changes
 * are checked in order, each against the map the ones before it made,
 * and repaired as one: the cells whose cost differs at the end, one
 * repair whatever the length of the list, or one search of the whole
 * map when they are more than a sixteenth of it.  Each cell
 * is painted once: work is the map's cells and the changes' rows (each
 * row with a search of the goals), however many changes cover a cell.  *total adds the
 * repair's statistics (may be NULL).  Refuses (FF_EINPUT, naming the
 * change's line and column) a rectangle leaving the map, a change closing
 * a goal (by its cells or the clearance), and a cost for a cell closed in
 * a cleared map; f is then unchanged but must not be written. */
ff_status ff_field_apply_changes(ff_field *f, const ff_change_list *l, const char *name,
                                 ff_repair *r, ff_repair_stats *total, ff_error *err);

#ifdef __cplusplus
}
#endif

#endif
