/* ffquery - ask a direction field: the smoothed direction at world
 * positions, the cell path to a goal, and whether spawn cells can reach a
 * goal (man 1 ffquery). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fieldsel.h"
#include "infile.h"
#include "options.h"
#include "outfile.h"
#include "anyangle.h"
#include "query.h"
#include "stream.h"
#include "turn.h"

static const char *prog = "ffquery";

static void usage(FILE *f)
{
    fprintf(f,
            "usage: ffquery [--raw] [-d] [--binary] [--map MAPFILE] [--name NAME]\n"
            "               [--max-cells N] [-o FILE] FIELD < positions\n"
            "       ffquery --trace X,Y [--heading H] [--map MAPFILE] [--name NAME]\n"
            "               [--max-cells N] [-o FILE] [FIELD]\n"
            "       ffquery --check [--map MAPFILE] [--name NAME] [-o FILE] FIELD < cells\n"
            "       ffquery --list [-o FILE] [FIELD]\n"
            "Answer questions about a direction field (an ff stream made by ffdir;\n"
            "--check also takes a distance field straight from ffbuild).\n"
            "Reads world positions 'x y', one a line, and writes the smoothed direction\n"
            "'dx dy' of each (a unit vector, or '0 0' where there is none); on a\n"
            "turn-cost field a line 'x y H' asks for the state of heading H (0..7).\n"
            "      --raw            the direction of the cell itself, not smoothed\n"
            "  -d, --distance       append the distance of the cell ('inf': none)\n"
            "      --binary         positions and answers as little-endian f64\n"
            "      --trace X,Y      print the cell path from cell X,Y (or from the cell of\n"
            "                       world position x.x,y.y) to a goal, in world units\n"
            "      --heading H      with --trace on a turn-cost field: from the state of\n"
            "                       heading H (0..7 or N E S W NE SE SW NW)\n"
            "      --check          read cells 'x y' (integers) or world positions\n"
            "                       'x.x y.y' and list those that cannot reach a goal;\n"
            "                       exit 1 if there are any\n"
            "      --map MAPFILE    refuse a field that was not built from MAPFILE\n"
            "      --name NAME      use the field of that name in a multi-field stream\n"
            "      --list           print the names of the stream's fields\n"
            "      --max-cells N    refuse fields of more cells (default 1073741824)\n"
            "  -o, --output FILE    write to FILE (atomically) instead of stdout\n"
            "  -h, --help           this help;  -V, --version  the version\n");
}

static int usage_error(const char *fmt, const char *arg)
{
    return ff_usage_error(prog, fmt, arg);
}

/* Read the field of the stream at path (the one named name in a
 * multi-field stream); it must have directions, or for --check
 * (need_direction 0) at least distances. */
static ff_status read_field(const char *path, const char *name, uint64_t max_cells,
                            int need_direction, ff_field *field, ff_error *err)
{
    ff_reader reader;
    ff_status st;
    FILE *in = ff_infile_open(path, err);

    ff_field_init(field);
    if (!in)
        return err->status;
    ff_reader_init(&reader, in, path);
    reader.max_cells = max_cells;
    st = ff_field_select(&reader, name, field, err);
    ff_infile_close(in);
    if (st == FF_OK && !field->distance && !need_direction)
        st = ff_error_set(err, FF_EINPUT, path, 0, 0,
                          "the stream has no distance channel: run ffbuild "
                          "(ffbuild -g X,Y MAP > FIELD)");
    else if (st == FF_OK && field->any_angle && need_direction && !ff_field_vectors(field))
        st = ff_error_set(err, FF_EINPUT, path, 0, 0,
                          "the any-angle field has no vector channel: run ffdir "
                          "(ffbuild --any-angle ... | ffdir > FIELD)");
    else if (st == FF_OK && !field->direction && !field->any_angle && need_direction)
        st = ff_error_set(err, FF_EINPUT, path, 0, 0,
                          "the field has no direction channel: run ffdir "
                          "(ffbuild ... | ffdir > FIELD)");
    return st;
}

/* Refuse the field unless the map at map_path, under the field's rules,
 * has the field's map id. */
static ff_status check_map(const char *map_path, const char *field_path, const ff_field *field,
                           ff_error *err)
{
    uint64_t id;
    ff_status st;
    FILE *in = ff_infile_open(map_path, err);

    if (!in)
        return err->status;
    st = ff_query_map_id(in, map_path, field, &id, err);
    ff_infile_close(in);
    if (st == FF_OK && id != field->map_id)
        st = ff_error_set(err, FF_EINPUT, field_path, 0, 0,
                          "map id %016llx is not %s's map id %016llx: the field was built "
                          "from another map or with other options; rebuild it",
                          (unsigned long long)field->map_id, map_path, (unsigned long long)id);
    return st;
}

int main(int argc, char **argv)
{
    enum { OPT_RAW = 256, OPT_BINARY, OPT_TRACE, OPT_CHECK, OPT_MAP, OPT_MAX_CELLS, OPT_NAME,
           OPT_LIST, OPT_HEADING };
    static const struct option longopts[] = {
        { "raw", no_argument, NULL, OPT_RAW },
        { "distance", no_argument, NULL, 'd' },
        { "binary", no_argument, NULL, OPT_BINARY },
        { "trace", required_argument, NULL, OPT_TRACE },
        { "heading", required_argument, NULL, OPT_HEADING },
        { "check", no_argument, NULL, OPT_CHECK },
        { "map", required_argument, NULL, OPT_MAP },
        { "max-cells", required_argument, NULL, OPT_MAX_CELLS },
        { "name", required_argument, NULL, OPT_NAME },
        { "list", no_argument, NULL, OPT_LIST },
        { "output", required_argument, NULL, 'o' },
        { "help", no_argument, NULL, 'h' },
        { "version", no_argument, NULL, 'V' },
        { NULL, 0, NULL, 0 },
    };
    ff_query_options qo = { 0, 0, 0, NULL, NULL };
    const char *field_path = "-", *map_path = NULL, *trace_arg = NULL, *name = NULL;
    const char *out_path = NULL;
    ff_outfile out;
    int out_open = 0;
    int check = 0, list = 0, c, heading = -1, trace_world = 0;
    double wx = 0, wy = 0;
    uint8_t *planes = NULL;
    long long tx = 0, ty = 0;
    uint64_t max_cells = 0;
    uint32_t *path = NULL;
    size_t n = 0;
    ff_field field;
    ff_error err;

    ff_error_clear(&err);
    ff_field_init(&field);
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":do:hV", longopts, NULL)) != -1) {
        switch (c) {
        case OPT_RAW: qo.raw = 1; break;
        case 'd': qo.distance = 1; break;
        case OPT_BINARY: qo.binary = 1; break;
        case OPT_TRACE:
            /* Two integers are a cell; other numbers a world position,
             * whose cell is known once the field is read. */
            trace_world = ff_parse_cell(optarg, &tx, &ty) != 0;
            if (trace_world && ff_parse_point(optarg, &wx, &wy))
                return usage_error("--trace '%s': not a cell X,Y or a world position x.x,y.y",
                                   optarg);
            trace_arg = optarg;
            break;
        case OPT_HEADING:
            if ((heading = ff_heading_parse(optarg)) < 0)
                return usage_error("--heading '%s': not a heading (0 to 7, or N E S W NE SE SW "
                                   "NW)", optarg);
            break;
        case OPT_CHECK: check = 1; break;
        case OPT_NAME: name = optarg; break;
        case OPT_LIST: list = 1; break;
        case OPT_MAP: map_path = optarg; break;
        case OPT_MAX_CELLS:
            if (ff_option_max_cells(prog, optarg, &max_cells))
                return 2;
            break;
        case 'o':
            if (ff_option_output(prog, "-o", optarg))
                return 2;
            out_path = optarg;
            break;
        case 'h': usage(stdout); return ff_stdout_done(prog);
        case 'V': return ff_print_version(prog);
        default: return ff_bad_option(prog, c, argv);
        }
    }
    if (argc - optind > 1)
        return usage_error("'%s': one field at most", argv[optind + 1]);
    if (optind < argc)
        field_path = argv[optind];
    if (trace_arg && check)
        return usage_error("%s", "--trace, --check: different modes, give one");
    if (heading >= 0 && !trace_arg)
        return usage_error("%s", "--heading: it goes with --trace (positions give their "
                                 "heading on their line, 'x y H')");
    if ((trace_arg || check) && (qo.raw || qo.distance || qo.binary))
        return usage_error("%s", "--raw, -d, --binary: they apply to positions, not to "
                                 "--trace or --check");
    if (!trace_arg && !list && strcmp(field_path, "-") == 0)
        return usage_error("%s", "FIELD '-': it must be a file, standard input carries the "
                                 "positions (or the cells of --check)");
    if (map_path && strcmp(map_path, "-") == 0 && (!trace_arg || strcmp(field_path, "-") == 0))
        return usage_error("%s", "--map '-': standard input is already taken");

    if (list) {
        if (ff_field_list_file(field_path, max_cells, out_path, &err) != FF_OK)
            goto failed;
        return 0;
    }
    if (read_field(field_path, name, max_cells, !check, &field, &err) != FF_OK)
        goto failed;
    if (map_path && check_map(map_path, field_path, &field, &err) != FF_OK)
        goto failed;
    if (heading >= 0 && !field.heading_direction) {
        ff_error_set(&err, FF_EUSAGE, field_path, 0, 0,
                     "--heading: the field has no headings (build it with ffbuild --turn-cost)");
        goto failed;
    }
    if (field.heading_direction && !trace_arg && !check) {
        /* Each heading's directions as a channel of its own, for the
         * samples of lines 'x y H'. */
        size_t cells = (size_t)field.grid.w * (size_t)field.grid.h;
        int h;
        if (!(planes = malloc(8 * cells))) {
            ff_error_set(&err, FF_ENOMEM, field_path, 0, 0, "out of memory for the headings");
            goto failed;
        }
        for (h = 0; h < 8; h++)
            ff_heading_plane(field.heading_direction, cells, h, planes + (size_t)h * cells);
        qo.heading_planes = planes;
    }
    qo.vectors = ff_field_vectors(&field);
    if (ff_outfile_open(&out, out_path, &err) != FF_OK)
        goto failed;
    out_open = 1;
    /* A world position stands for the cell it lies in, on every path. */
    if (trace_arg && trace_world &&
        ff_query_reach_world(&field, wx, wy, &tx, &ty) == FF_REACH_OUTSIDE) {
        ff_error_set(&err, FF_EUSAGE, field_path, 0, 0,
                     "--trace %s: the world position lies outside the %dx%d map (cell "
                     "%lld,%lld)", trace_arg, field.grid.w, field.grid.h, tx, ty);
        goto failed;
    }
    if (trace_arg && field.any_angle) {
        double *corners = NULL;
        if (ff_anyangle_corner_path(&field.grid, field.distance, tx, ty, &corners, &n, &err) !=
            FF_OK) {
            if (!err.file[0])
                snprintf(err.file, sizeof err.file, "%s", field_path);
            goto failed;
        }
        if (ff_query_write_points(out.f, corners, n, &err) != FF_OK) {
            free(corners);
            goto write_failed;
        }
        free(corners);
    } else if (trace_arg) {
        if (ff_query_trace_state(&field, tx, ty, heading, field_path, &path, &n, &err) != FF_OK)
            goto failed;
        if (ff_query_write_path(out.f, &field.grid, path, n, &err) != FF_OK)
            goto write_failed;
    } else {
        /* Positions or cells come on standard input, which must be a file
         * or a pipe, not a folder. */
        FILE *in = ff_infile_open("-", &err);
        if (!in)
            goto failed;
        if (check ? ff_query_check(&field, in, "-", out.f, &n, &err) != FF_OK
                  : ff_query_stream(&field, &qo, STDIN_FILENO, "-", out.f, &err) != FF_OK)
            goto write_failed;
    }
    out_open = 0;
    if (ff_outfile_commit(&out, &err) != FF_OK)
        goto failed;
    free(path);
    free(planes);
    ff_field_free(&field);
    return check && n > 0 ? 1 : 0;
write_failed:
    /* The library leaves the name of a write error to the program. */
    if (!err.file[0])
        snprintf(err.file, sizeof err.file, "%s", out_path ? out_path : "-");
failed:
    if (out_open)
        ff_outfile_abort(&out);
    free(path);
    free(planes);
    ff_field_free(&field);
    ff_error_print(stderr, prog, &err);
    return ff_exit_status(err.status);
}
