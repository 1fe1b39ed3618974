/* ffpull - string pulling: pull a path tight with a line of sight that obeys
 * the moves' corner rule, terrain classes and costs (man 1 ffpull). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fieldsel.h"
#include "infile.h"
#include "options.h"
#include "outfile.h"
#include "pull.h"
#include "records.h"
#include "stream.h"

static const char *prog = "ffpull";

static void usage(FILE *f)
{
    fprintf(f,
            "usage: ffpull [--name NAME] [--max-cells N] [-o FILE] FIELD [PATH]\n"
            "       ffpull --list FIELD\n"
            "Read a path `x y` a line (world units) from the file PATH or standard\n"
            "input and write the pulled path: a subsequence of its points whose every\n"
            "segment is a line of sight on FIELD's map (an ff stream file).\n"
            "      --name NAME      the field named NAME of a multi-field stream\n"
            "      --list           print the names of FIELD's fields and stop\n"
            "      --max-cells N    refuse streams of more cells (default 1073741824)\n"
            "  -o, --output FILE    write to FILE (atomically) instead of stdout\n"
            "  -h, --help           this help;  -V, --version  the version\n");
}

int main(int argc, char **argv)
{
    static const struct option longopts[] = {
        { "name", required_argument, NULL, 'n' },
        { "list", no_argument, NULL, 'L' },
        { "max-cells", required_argument, NULL, 'M' },
        { "output", required_argument, NULL, 'o' },
        { "help", no_argument, NULL, 'h' },
        { "version", no_argument, NULL, 'V' },
        { NULL, 0, NULL, 0 },
    };
    const char *out_path = NULL, *field_path, *name = NULL, *path_path = "-";
    int c, list = 0;
    uint64_t max_cells = 0;
    size_t *keep = NULL, nkeep = 0, k;
    ff_error err;
    ff_field field;
    ff_path path;
    ff_outfile out;
    ff_reader reader;
    ff_records records;
    ff_status st;
    FILE *in;

    ff_error_clear(&err);
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":o:hV", longopts, NULL)) != -1) {
        switch (c) {
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
    if (argc - optind > 2 || (list && argc - optind > 1))
        return ff_usage_error(prog, "'%s': one FIELD and one PATH at most",
                              argv[optind + (list ? 1 : 2)]);
    if (argc - optind == 0)
        return ff_usage_error(prog, "%s", "FIELD: none given (ffpull FIELD [PATH])");
    field_path = argv[optind];
    if (argc - optind == 2)
        path_path = argv[optind + 1];
    if (list) {
        if (ff_field_list_file(field_path, max_cells, out_path, &err) == FF_OK)
            return 0;
        ff_error_print(stderr, prog, &err);
        return ff_exit_status(err.status);
    }
    if (strcmp(field_path, "-") == 0 && strcmp(path_path, "-") == 0)
        return ff_usage_error(prog, "%s", "FIELD '-': it must be a file when the path comes "
                                          "on standard input");
    ff_field_init(&field);
    ff_path_init(&path);
    if (!(in = ff_infile_open(field_path, &err))) {
        st = err.status;
        goto failed;
    }
    ff_reader_init(&reader, in, field_path);
    reader.max_cells = max_cells;
    st = ff_field_select(&reader, name, &field, &err);
    ff_infile_close(in);
    if (st != FF_OK || !(in = ff_infile_open(path_path, &err))) {
        st = err.status;
        goto failed;
    }
    ff_records_init(&records, in, path_path);
    st = ff_path_read(&path, &records, &err);
    ff_infile_close(in);
    if (st != FF_OK)
        goto failed;
    if (path.n && !(keep = malloc(path.n * sizeof *keep))) {
        st = ff_error_set(&err, FF_ENOMEM, NULL, 0, 0, "out of memory");
        goto failed;
    }
    if ((st = ff_pull(&field.grid, &path, path_path, keep, &nkeep, &err)) != FF_OK)
        goto failed;
    if ((st = ff_outfile_open(&out, out_path, &err)) != FF_OK)
        goto failed;
    for (k = 0; k < nkeep; k++)
        ff_point_write(out.f, path.xy[2 * keep[k]], path.xy[2 * keep[k] + 1]);
    st = ff_outfile_commit(&out, &err);
failed:
    free(keep);
    ff_path_free(&path);
    ff_field_free(&field);
    if (st != FF_OK) {
        ff_error_print(stderr, prog, &err);
        return ff_exit_status(st);
    }
    return 0;
}
