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

/* The command line, parsed. */
typedef struct {
    ff_query_options qo;  /* --raw, -d, --binary */
    const char *field_path, *map_path, *trace_arg, *name, *out_path;
    int check, list;
    int heading;          /* with --trace: 0..7, or -1 */
    long long tx, ty;     /* the cell of --trace */
    int trace_world;      /* 1: --trace gave the world position wx, wy */
    double wx, wy;
    uint64_t max_cells;
} query_command;

/* Parse the command line into o; -1 to go on, or the exit status (help,
 * version, a usage error). */
static int parse_options(int argc, char **argv, query_command *o)
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
    int c;

    opterr = 0;
    while ((c = getopt_long(argc, argv, ":do:hV", longopts, NULL)) != -1) {
        switch (c) {
        case OPT_RAW: o->qo.raw = 1; break;
        case 'd': o->qo.distance = 1; break;
        case OPT_BINARY: o->qo.binary = 1; break;
        case OPT_TRACE:
            /* Two integers are a cell; other numbers a world position,
             * whose cell is known once the field is read. */
            o->trace_world = ff_parse_cell(optarg, &o->tx, &o->ty) != 0;
            if (o->trace_world && ff_parse_point(optarg, &o->wx, &o->wy))
                return usage_error("--trace '%s': not a cell X,Y or a world position x.x,y.y",
                                   optarg);
            o->trace_arg = optarg;
            break;
        case OPT_HEADING:
            if ((o->heading = ff_heading_parse(optarg)) < 0)
                return usage_error("--heading '%s': not a heading (0 to 7, or N E S W NE SE SW "
                                   "NW)", optarg);
            break;
        case OPT_CHECK: o->check = 1; break;
        case OPT_NAME: o->name = optarg; break;
        case OPT_LIST: o->list = 1; break;
        case OPT_MAP: o->map_path = optarg; break;
        case OPT_MAX_CELLS:
            if (ff_option_max_cells(prog, optarg, &o->max_cells))
                return 2;
            break;
        case 'o':
            if (ff_option_output(prog, "-o", optarg))
                return 2;
            o->out_path = optarg;
            break;
        case 'h': usage(stdout); return ff_stdout_done(prog);
        case 'V': return ff_print_version(prog);
        default: return ff_bad_option(prog, c, argv);
        }
    }
    if (argc - optind > 1)
        return usage_error("'%s': one field at most", argv[optind + 1]);
    if (optind < argc)
        o->field_path = argv[optind];
    return -1;
}

/* The options that do not go together; -1 when they all do, or the exit
 * status of the usage error. */
static int check_options(const query_command *o)
{
    if (o->trace_arg && o->check)
        return usage_error("%s", "--trace, --check: different modes, give one");
    if (o->heading >= 0 && !o->trace_arg)
        return usage_error("%s", "--heading: it goes with --trace (positions give their "
                                 "heading on their line, 'x y H')");
    if ((o->trace_arg || o->check) && (o->qo.raw || o->qo.distance || o->qo.binary))
        return usage_error("%s", "--raw, -d, --binary: they apply to positions, not to "
                                 "--trace or --check");
    if (!o->trace_arg && !o->list && strcmp(o->field_path, "-") == 0)
        return usage_error("%s", "FIELD '-': it must be a file, standard input carries the "
                                 "positions (or the cells of --check)");
    if (o->map_path && strcmp(o->map_path, "-") == 0 &&
        (!o->trace_arg || strcmp(o->field_path, "-") == 0))
        return usage_error("%s", "--map '-': standard input is already taken");
    if (o->qo.binary && !o->list && ff_option_binary_output(prog, o->out_path, NULL))
        return 2;
    return -1;
}

/* Each heading's directions of field as a channel of its own, for the
 * samples of lines 'x y H': 8 planes of w*h codes in *planes (the
 * caller's to free). */
static ff_status heading_planes(const ff_field *field, const char *field_path, uint8_t **planes,
                                ff_error *err)
{
    size_t cells = (size_t)field->grid.w * (size_t)field->grid.h;
    int h;

    if (!(*planes = malloc(8 * cells)))
        return ff_error_set(err, FF_ENOMEM, field_path, 0, 0, "out of memory for the headings");
    for (h = 0; h < 8; h++)
        ff_heading_plane(field->heading_direction, cells, h, *planes + (size_t)h * cells);
    return FF_OK;
}

/* Name the output in a write error, which the library leaves to the
 * program. */
static ff_status output_failed(const query_command *o, ff_status st, ff_error *err)
{
    if (!err->file[0])
        snprintf(err->file, sizeof err->file, "%s", o->out_path ? o->out_path : "-");
    return st;
}

/* Answer on out: the path of --trace from cell tx,ty (an any-angle field's
 * corner path), or from standard input the cells of --check (*n of them
 * cannot reach a goal) or the positions. */
static ff_status answer(const query_command *o, long long tx, long long ty, const ff_field *field,
                        const ff_query_options *qo, FILE *out, size_t *n, ff_error *err)
{
    uint32_t *path = NULL;
    ff_status st;
    FILE *in;

    if (o->trace_arg && field->any_angle) {
        double *corners = NULL;
        st = ff_anyangle_corner_path(&field->grid, field->distance, tx, ty, &corners, n, err);
        if (st != FF_OK && !err->file[0])
            snprintf(err->file, sizeof err->file, "%s", o->field_path);
        else if (st == FF_OK && (st = ff_query_write_points(out, corners, *n, err)) != FF_OK)
            output_failed(o, st, err);
        free(corners);
        return st;
    }
    if (o->trace_arg) {
        st = ff_query_trace_state(field, tx, ty, o->heading, o->field_path, &path, n, err);
        if (st == FF_OK && (st = ff_query_write_path(out, &field->grid, path, *n, err)) != FF_OK)
            output_failed(o, st, err);
        free(path);
        return st;
    }
    /* Positions or cells come on standard input, which must be a file or
     * a pipe, not a folder. */
    if (!(in = ff_infile_open("-", err)))
        return err->status;
    st = o->check ? ff_query_check(field, in, "-", out, n, err)
                  : ff_query_stream(field, qo, STDIN_FILENO, "-", out, err);
    return st == FF_OK ? FF_OK : output_failed(o, st, err);
}

/* Read the field and answer what the command line asks; *n as answer()
 * sets it. */
static ff_status run(const query_command *o, size_t *n, ff_error *err)
{
    ff_query_options qo = o->qo;
    long long tx = o->tx, ty = o->ty;
    uint8_t *planes = NULL;
    ff_outfile out;
    ff_field field;
    ff_status st;

    if (o->list)
        return ff_field_list_file(o->field_path, o->max_cells, o->out_path, err);
    if ((st = read_field(o->field_path, o->name, o->max_cells, !o->check, &field, err)) != FF_OK ||
        (o->map_path && (st = check_map(o->map_path, o->field_path, &field, err)) != FF_OK))
        goto done;
    if (o->heading >= 0 && !field.heading_direction) {
        st = ff_error_set(err, FF_EUSAGE, o->field_path, 0, 0,
                          "--heading: the field has no headings (build it with ffbuild "
                          "--turn-cost)");
        goto done;
    }
    if (field.heading_direction && !o->trace_arg && !o->check) {
        if ((st = heading_planes(&field, o->field_path, &planes, err)) != FF_OK)
            goto done;
        qo.heading_planes = planes;
    }
    qo.vectors = ff_field_vectors(&field);
    if ((st = ff_outfile_open(&out, o->out_path, err)) != FF_OK)
        goto done;
    /* A world position stands for the cell it lies in, on every path. */
    if (o->trace_arg && o->trace_world &&
        ff_query_reach_world(&field, o->wx, o->wy, &tx, &ty) == FF_REACH_OUTSIDE)
        st = ff_error_set(err, FF_EUSAGE, o->field_path, 0, 0,
                          "--trace %s: the world position lies outside the %dx%d map (cell "
                          "%lld,%lld)", o->trace_arg, field.grid.w, field.grid.h, tx, ty);
    else
        st = answer(o, tx, ty, &field, &qo, out.f, n, err);
    if (st != FF_OK)
        ff_outfile_abort(&out);
    else
        st = ff_outfile_commit(&out, err);
done:
    free(planes);
    ff_field_free(&field);
    return st;
}

int main(int argc, char **argv)
{
    query_command o;
    ff_error err;
    size_t n = 0;
    int status;

    memset(&o, 0, sizeof o);
    o.field_path = "-";
    o.heading = -1;
    if ((status = parse_options(argc, argv, &o)) >= 0 || (status = check_options(&o)) >= 0)
        return status;
    ff_error_clear(&err);
    if (run(&o, &n, &err) != FF_OK) {
        ff_error_print(stderr, prog, &err);
        return ff_exit_status(err.status);
    }
    return o.check && n > 0 ? 1 : 0;
}
