/* changes.h - the change list of ffbuild --update (man 1 ffbuild,
 * "CHANGES"): one change of a rectangle of cells a line,
 *
 *     close X0,Y0,X1,Y1      close the cells (walls)
 *     cost X0,Y0,X1,Y1 C     give the cells cost C >= 0 (opens walls)
 *
 * with X0 <= X1, Y0 <= Y1 (cells, inclusive).  Words are separated by
 * spaces or tabs; '#' starts a comment; blank lines are skipped.  Whether
 * a rectangle lies inside a map is the reader of the map's to say: the
 * list records where each change was read.
 */
#ifndef FF_CHANGES_H
#define FF_CHANGES_H

#include <stdio.h>

#include "fferror.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { FF_CHANGE_CLOSE = 0, FF_CHANGE_COST } ff_change_kind;

typedef struct {
    ff_change_kind kind;
    long long x0, y0, x1, y1;  /* the rectangle, cells, inclusive; within
                                  +-2^31, x0 <= x1, y0 <= y1 */
    float cost;                /* FF_CHANGE_COST: finite, >= 0 */
    long line, col;            /* where it was read (1-based): the line,
                                  and the column of its rectangle */
} ff_map_change;

typedef struct {
    ff_map_change *change;     /* in the order of the file; owned */
    size_t n;
} ff_change_list;

/* Read every change of f (name is used in messages) into *out (release it
 * with ff_changes_free).  Refuses, naming line and column, an unknown
 * word, a rectangle that is not four integers X0,Y0,X1,Y1 in order, a
 * cost that is not a finite number >= 0 that a float holds, extra words,
 * and a line too long; on failure *out is left empty.  A file without any
 * change is an empty list. */
ff_status ff_changes_read(FILE *f, const char *name, ff_change_list *out, ff_error *err);

void ff_changes_free(ff_change_list *l);

#ifdef __cplusplus
}
#endif

#endif
