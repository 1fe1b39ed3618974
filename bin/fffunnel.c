/* fffunnel - the funnel algorithm: the shortest path through a corridor of
 * portals, or through the cells of a cell path (man 1 fffunnel). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fieldsel.h"
#include "funnel.h"
#include "infile.h"
#include "options.h"
#include "outfile.h"
#include "pull.h"
#include "ranges.h"
#include "records.h"
#include "stream.h"

static const char *prog = "fffunnel";

static void usage(FILE *f)
{
    fprintf(f,
            "usage: fffunnel [-r R] [--cells FIELD [--name NAME]] [--max-cells N] [-o FILE]\n"
            "                [FILE]\n"
            "       fffunnel --list --cells FIELD\n"
            "Read a corridor (the start `x y`, one portal `lx ly rx ry` a line, left\n"
            "and right as seen walking it north up, the goal `x y`) and write the\n"
            "shortest path through it, `x y` a line, start and goal included.\n"
            "  -r, --radius R       shrink each portal by R at both ends (agent radius)\n"
            "      --cells FIELD    read a cell path instead; portals are the cell edges\n"
            "                       on the map of FIELD (an ff stream file)\n"
            "      --name NAME      with --cells: the field named NAME of a multi-field\n"
            "                       stream\n"
            "      --list           with --cells: print the names of FIELD's fields\n"
            "      --max-cells N    refuse streams of more cells (default 1073741824)\n"
            "  -o, --output FILE    write to FILE (atomically) instead of stdout\n"
            "  -h, --help           this help;  -V, --version  the version\n");
}

/* Read the field named name (NULL: the only one) of an ff stream file. */
static ff_status read_field(const char *path, const char *name, uint64_t max_cells,
                            ff_field *field, ff_error *err)
{
    ff_reader reader;
    ff_status st;
    FILE *f = ff_infile_open(path, err);

    if (!f)
        return err->status;
    ff_reader_init(&reader, f, path);
    reader.max_cells = max_cells;
    st = ff_field_select(&reader, name, field, err);
    ff_infile_close(f);
    return st;
}

int main(int argc, char **argv)
{
    static const struct option longopts[] = {
        { "radius", required_argument, NULL, 'r' },
        { "cells", required_argument, NULL, 'c' },
        { "name", required_argument, NULL, 'n' },
        { "list", no_argument, NULL, 'L' },
        { "max-cells", required_argument, NULL, 'M' },
        { "output", required_argument, NULL, 'o' },
        { "help", no_argument, NULL, 'h' },
        { "version", no_argument, NULL, 'V' },
        { NULL, 0, NULL, 0 },
    };
    const char *out_path = NULL, *cells_path = NULL, *in_path = "-", *name = NULL;
    double radius = 0;
    int c, list = 0;
    uint64_t max_cells = 0;
    size_t k;
    ff_error err;
    ff_field field;
    ff_corridor corridor;
    ff_path cells, corners;
    ff_outfile out;
    ff_records records;
    ff_status st;
    FILE *in = stdin;

    ff_error_clear(&err);
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":r:o:hV", longopts, NULL)) != -1) {
        switch (c) {
        case 'r':
            if (ff_parse_real(optarg, &radius) || !ff_range_ok(FF_RANGE_FUNNEL_RADIUS, radius))
                return ff_range_error(prog, "-r", optarg, FF_RANGE_FUNNEL_RADIUS);
            break;
        case 'c': cells_path = optarg; break;
        case 'n': name = optarg; break;
        case 'L': list = 1; break;
        case 'M':
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
        return ff_usage_error(prog, "'%s': one input at most", argv[optind + 1]);
    if (name && !cells_path)
        return ff_usage_error(prog, "--name '%s': it goes with --cells", name);
    if (list && !cells_path)
        return ff_usage_error(prog, "%s", "--list: it goes with --cells FIELD");
    if (list) {
        if (ff_field_list_file(cells_path, max_cells, out_path, &err) == FF_OK)
            return 0;
        ff_error_print(stderr, prog, &err);
        return ff_exit_status(err.status);
    }
    if (optind < argc)
        in_path = argv[optind];
    if (cells_path && strcmp(cells_path, "-") == 0 && strcmp(in_path, "-") == 0)
        return ff_usage_error(prog, "%s", "--cells '-': the path already comes on standard "
                                          "input");
    if (!(in = ff_infile_open(in_path, &err))) {
        ff_error_print(stderr, prog, &err);
        return ff_exit_status(err.status);
    }
    ff_field_init(&field);
    ff_corridor_init(&corridor);
    ff_path_init(&cells);
    ff_path_init(&corners);
    ff_records_init(&records, in, in_path);
    if (cells_path) {
        if ((st = read_field(cells_path, name, max_cells, &field, &err)) != FF_OK ||
            (st = ff_path_read(&cells, &records, &err)) != FF_OK ||
            (st = ff_corridor_from_cells(&field.grid, &cells, in_path, &corridor, &err)) != FF_OK)
            goto failed;
    } else if ((st = ff_corridor_read(&corridor, &records, &err)) != FF_OK)
        goto failed;
    if ((st = ff_corridor_check(&corridor, in_path, &err)) != FF_OK ||
        (st = ff_corridor_shrink(&corridor, radius, in_path, &err)) != FF_OK ||
        (st = ff_funnel(&corridor, &corners, &err)) != FF_OK ||
        (st = ff_outfile_open(&out, out_path, &err)) != FF_OK)
        goto failed;
    for (k = 0; k < corners.n; k++)
        ff_point_write(out.f, corners.xy[2 * k], corners.xy[2 * k + 1]);
    st = ff_outfile_commit(&out, &err);
failed:
    ff_infile_close(in);
    ff_path_free(&corners);
    ff_path_free(&cells);
    ff_corridor_free(&corridor);
    ff_field_free(&field);
    if (st != FF_OK) {
        ff_error_print(stderr, prog, &err);
        return ff_exit_status(st);
    }
    return 0;
}
