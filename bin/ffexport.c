/* ffexport - one channel of one field for numpy, spreadsheets and game
 * engines: .npy, CSV or raw little-endian (man 1 ffexport). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chanview.h"
#include "export.h"
#include "exportall.h"
#include "fieldsel.h"
#include "infile.h"
#include "options.h"
#include "outfile.h"
#include "stream.h"

static const char *prog = "ffexport";

static void usage(FILE *f)
{
    fprintf(f,
            "usage: ffexport [-c NAME] [--name FIELD] [--npy | --csv | --raw] [--max-cells N]\n"
            "                [-o FILE] [STREAM]\n"
            "       ffexport --all [--name FIELD]... [-c NAME] [--npy | --csv | --raw]\n"
            "                [--max-cells N] -o DIR [STREAM]\n"
            "       ffexport --list [-o FILE] [STREAM]\n"
            "Write one channel of one field: numpy's .npy (dtype of the channel, shape\n"
            "(H, W), or (H, W, L) for a channel of L values a cell), CSV rows 'x,y,value',\n"
            "or the raw values little-endian.  The format: the option given, else the\n"
            "extension of -o FILE (.npy .csv .raw), else .npy.\n"
            "  -c, --channel NAME   the channel to write (default distance)\n"
            "      --name FIELD     the field of that name in a multi-field stream\n"
            "      --all            every field (or each --name), one pass, to -o DIR:\n"
            "                       DIR/NAME.npy (.csv .raw; field-N for no name)\n"
            "      --npy            numpy's .npy format (version 1.0)\n"
            "      --csv            a header line, then 'x,y,value' ('x,y,lane,value')\n"
            "      --raw            the values alone, little-endian\n"
            "      --list           print the name of each field, one a line ('-': none)\n"
            "      --max-cells N    refuse fields of more cells (default 1073741824)\n"
            "  -o, --output FILE    write to FILE (atomically) instead of stdout\n"
            "  -h, --help           this help;  -V, --version  the version\n");
}

/* Print err's line; the exit status it means. */
static int report(const ff_error *err)
{
    ff_error_print(stderr, prog, err);
    return ff_exit_status(err->status);
}

/* --all: every field of in_path (or those of names_wanted) to a file
 * each in the folder out_dir, in one pass; the exit status. */
static int export_every(const char *in_path, const char **names_wanted, size_t nnames,
                        const char *channel, ff_export_format fmt, const char *out_dir,
                        uint64_t max_cells)
{
    ff_error err;
    ff_reader reader;
    size_t written;
    FILE *in;
    ff_status st;

    ff_error_clear(&err);
    if (!(in = ff_infile_open(in_path, &err)))
        return report(&err);
    ff_reader_init(&reader, in, in_path);
    reader.max_cells = max_cells;
    st = ff_export_all(&reader, names_wanted, nnames, channel, fmt, out_dir, &written, &err);
    ff_infile_close(in);
    return st == FF_OK ? 0 : report(&err);
}

/* The channel of the field named name (NULL: the only one) of in_path to
 * out_path in fmt; the exit status. */
static int export_one(const char *in_path, const char *name, const char *channel,
                      ff_export_format fmt, const char *out_path, uint64_t max_cells)
{
    char names[200];
    ff_channel_view view;
    ff_error err;
    ff_field field;
    ff_outfile out;
    ff_reader reader;
    FILE *in;

    ff_error_clear(&err);
    ff_field_init(&field);
    if (!(in = ff_infile_open(in_path, &err)))
        goto failed;
    ff_reader_init(&reader, in, in_path);
    reader.max_cells = max_cells;
    if (ff_field_select(&reader, name, &field, &err) != FF_OK)
        goto failed;
    ff_infile_close(in);
    in = NULL;
    if (!ff_field_find_channel(&field, channel, &view)) {
        ff_field_channel_names(&field, names, sizeof names);
        if (strcmp(channel, "distance") == 0)
            ff_error_set(&err, FF_EINPUT, in_path, 0, 0,
                         "the field has no distance channel: name one with -c (channels: %s)",
                         names);
        else
            ff_error_set(&err, FF_EINPUT, in_path, 0, 0, "no channel '%.32s' (channels: %s)",
                         channel, names);
        goto failed;
    }
    if (ff_outfile_open(&out, out_path, &err) != FF_OK)
        goto failed;
    if (ff_export_channel(out.f, &view, field.grid.w, field.grid.h, fmt, &err) != FF_OK) {
        snprintf(err.file, sizeof err.file, "%s", out_path ? out_path : "-");
        ff_outfile_abort(&out);
        goto failed;
    }
    if (ff_outfile_commit(&out, &err) != FF_OK)
        goto failed;
    ff_field_free(&field);
    return 0;
failed:
    ff_infile_close(in);
    ff_field_free(&field);
    return report(&err);
}

/* The run; names_wanted has room for every --name (argc). */
static int run(int argc, char **argv, const char **names_wanted)
{
    enum { OPT_NAME = 256, OPT_LIST, OPT_MAX_CELLS, OPT_NPY, OPT_CSV, OPT_RAW, OPT_ALL };
    static const struct option longopts[] = {
        { "channel", required_argument, NULL, 'c' },
        { "name", required_argument, NULL, OPT_NAME },
        { "npy", no_argument, NULL, OPT_NPY },
        { "csv", no_argument, NULL, OPT_CSV },
        { "raw", no_argument, NULL, OPT_RAW },
        { "list", no_argument, NULL, OPT_LIST },
        { "all", no_argument, NULL, OPT_ALL },
        { "max-cells", required_argument, NULL, OPT_MAX_CELLS },
        { "output", required_argument, NULL, 'o' },
        { "help", no_argument, NULL, 'h' },
        { "version", no_argument, NULL, 'V' },
        { NULL, 0, NULL, 0 },
    };
    static const char *const format_opt[] = { "--npy", "--csv", "--raw" };
    const char *out_path = NULL, *in_path = "-", *name = NULL, *channel = "distance";
    int list = 0, all = 0, c, format = -1, chosen = 0;
    size_t nnames = 0;
    ff_export_format fmt = FF_EXPORT_NPY;
    uint64_t max_cells = 0;
    ff_error err;

    ff_error_clear(&err);
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":c:o:hV", longopts, NULL)) != -1) {
        switch (c) {
        case 'c': channel = optarg; break;
        case OPT_NAME: name = names_wanted[nnames++] = optarg; break;
        case OPT_ALL: all = 1; break;
        case OPT_NPY: case OPT_CSV: case OPT_RAW:
            if (format >= 0 && format != c - OPT_NPY) {
                fprintf(stderr, "%s: %s, %s: give one format (see %s --help)\n", prog,
                        format_opt[format], format_opt[c - OPT_NPY], prog);
                return 2;
            }
            format = c - OPT_NPY;
            break;
        case OPT_LIST: list = 1; break;
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
        return ff_usage_error(prog, "'%s': one stream at most", argv[optind + 1]);
    if (optind < argc)
        in_path = argv[optind];
    if (all && list)
        return ff_usage_error(prog, "%s", "--all, --list: give one");
    if (all && (!out_path || strcmp(out_path, "-") == 0))
        return ff_usage_error(prog, "%s", "--all: it writes a file per field: give -o DIR");
    if (nnames > 1 && !all)
        return ff_usage_error(prog, "%s", "--name: one field, or several with --all");
    if (all)
        return export_every(in_path, names_wanted, nnames, channel,
                            format >= 0 ? (ff_export_format)format : FF_EXPORT_NPY, out_path,
                            max_cells);
    if (list) {
        if (ff_field_list_file(in_path, max_cells, out_path, &err) != FF_OK)
            goto failed;
        return 0;
    }
    /* The format: the option, else -o's extension, else .npy. */
    if (format >= 0)
        fmt = (ff_export_format)format;
    else if (out_path && strcmp(out_path, "-") != 0) {
        chosen = ff_export_format_of(out_path, &fmt);
        if (!chosen)
            return ff_usage_error(prog, "-o '%s': the name ends in none of .npy, .csv, .raw: "
                                        "give --npy, --csv or --raw", out_path);
    }

    if (fmt != FF_EXPORT_CSV && ff_option_binary_output(prog, out_path, "--csv"))
        return 2;
    return export_one(in_path, name, channel, fmt, out_path, max_cells);
failed:
    return report(&err);
}

int main(int argc, char **argv)
{
    const char **names_wanted = calloc((size_t)argc, sizeof *names_wanted);
    int status;

    if (!names_wanted) {
        fprintf(stderr, "%s: out of memory\n", prog);
        return 3;
    }
    status = run(argc, argv, names_wanted);
    free(names_wanted);
    return status;
}
