/* route.c - the route of an agent from a start cell to a goal cell of a
 * map, with libff: the map read as ffbuild reads it, the distance field
 * searched and its directions made in memory, the cell path traced down
 * the field and string-pulled, the kept points written in world units.
 *
 *   route MAP GX,GY SX,SY
 *
 * writes what `ffbuild -g GX,GY MAP | ffdir > f.ff; ffquery --trace SX,SY
 * f.ff | ffpull f.ff` writes.  Build: cc route.c $(pkg-config --cflags
 * --libs fftools) -o route (see the Makefile beside it). */
#include <stdio.h>
#include <stdlib.h>

#include <fftools/direction.h>
#include <fftools/mapread.h>
#include <fftools/pull.h>
#include <fftools/query.h>
#include <fftools/search.h>

/* Parse "X,Y" into two cell coordinates; 0 on success. */
static int parse_cell(const char *s, long long *x, long long *y)
{
    char end;

    return sscanf(s, "%lld,%lld%c", x, y, &end) == 2 ? 0 : -1;
}

int main(int argc, char **argv)
{
    ff_map_options opt;
    ff_field field;
    ff_error err;
    ff_path path;
    uint32_t *cells = NULL;
    size_t ncells = 0, nkeep = 0, k, *keep = NULL;
    long long gx, gy, sx, sy;
    size_t n;
    FILE *in;

    if (argc != 4 || parse_cell(argv[2], &gx, &gy) || parse_cell(argv[3], &sx, &sy)) {
        fprintf(stderr, "usage: route MAP GX,GY SX,SY\n");
        return 2;
    }
    if (!(in = fopen(argv[1], "rb"))) {
        perror(argv[1]);
        return 2;
    }
    ff_field_init(&field);
    ff_path_init(&path);
    ff_map_options_init(&opt);
    opt.path = argv[1];  /* Tiled maps find their tilesets beside it */
    if (ff_map_read(in, argv[1], &opt, &field.grid, &err) != FF_OK)
        goto failed;
    fclose(in);
    in = NULL;
    /* The goal given replaces the map's own goals, as ffbuild -g does. */
    free(field.grid.goals);
    field.grid.goals = NULL;
    field.grid.ngoals = 0;
    if (ff_grid_add_goal(&field.grid, gx, gy, "GX,GY", 0, 0, &err) != FF_OK)
        goto failed;
    n = (size_t)field.grid.w * (size_t)field.grid.h;
    field.distance = malloc(n * sizeof *field.distance);
    field.direction = malloc(n);
    if (!field.distance || !field.direction) {
        fprintf(stderr, "route: out of memory\n");
        return 3;
    }
    if (ff_search(&field.grid, field.distance, &err) != FF_OK ||
        ff_direction_field(&field.grid, field.distance, field.direction, &err) != FF_OK ||
        ff_query_trace(&field, sx, sy, argv[1], &cells, &ncells, &err) != FF_OK)
        goto failed;
    /* The cell centers, in world units, pulled tight. */
    for (k = 0; k < ncells; k++) {
        double x, y;
        ff_cell_center(&field.grid, cells[k], &x, &y);
        if (ff_path_push(&path, x, y, (long)k + 1, &err) != FF_OK)
            goto failed;
    }
    if (!(keep = malloc(path.n * sizeof *keep))) {
        fprintf(stderr, "route: out of memory\n");
        return 3;
    }
    if (path.n == 1)
        ff_point_write(stdout, path.xy[0], path.xy[1]);
    else if (ff_pull(&field.grid, &path, argv[1], keep, &nkeep, &err) != FF_OK)
        goto failed;
    for (k = 0; k < nkeep; k++)
        ff_point_write(stdout, path.xy[2 * keep[k]], path.xy[2 * keep[k] + 1]);
    free(keep);
    free(cells);
    ff_path_free(&path);
    ff_field_free(&field);
    return fclose(stdout) == 0 ? 0 : 3;
failed:
    if (in)
        fclose(in);
    free(keep);
    free(cells);
    ff_path_free(&path);
    ff_field_free(&field);
    ff_error_print(stderr, "route", &err);
    return ff_exit_status(err.status);
}
