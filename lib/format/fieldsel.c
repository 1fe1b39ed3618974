/* fieldsel.c - choosing a field of a multi-field stream; see fieldsel.h. */
#include "fieldsel.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "infile.h"
#include "outfile.h"

/* The names seen, for a message: "a, b, -, c" cut short with "..." so
 * that it fits a line. */
typedef struct {
    char text[200];
    size_t len;
    int cut;
} name_list;

static void names_add(name_list *l, const char *name)
{
    const char *shown = name[0] ? name : "-";
    size_t need = strlen(shown) + (l->len ? 2 : 0);

    if (l->cut)
        return;
    if (l->len + need + 8 >= sizeof l->text) {
        memcpy(l->text + l->len, l->len ? ", ..." : "...", l->len ? 6 : 4);
        l->len += l->len ? 5 : 3;
        l->cut = 1;
        return;
    }
    sprintf(l->text + l->len, "%s%s", l->len ? ", " : "", shown);
    l->len += need;
}

ff_status ff_field_select(ff_reader *r, const char *name, ff_field *out, ff_error *err)
{
    ff_field next;
    name_list names = { "", 0, 0 };
    size_t count = 0, match = 0, second = 0;
    ff_status st;

    ff_field_init(out);
    while ((st = ff_field_read(r, &next, err)) == FF_OK) {
        count++;
        names_add(&names, next.name);
        if (name ? strcmp(next.name, name) == 0 : count == 1) {
            if (match == 0) {
                match = count;
                *out = next;
                continue;
            }
            if (second == 0)
                second = count;
        }
        ff_field_free(&next);
    }
    if (st != FF_ENOTFOUND)
        goto fail;
    if (count == 0)
        st = ff_error_set(err, FF_EINPUT, r->name, 0, 0, "empty input: no ff stream");
    else if (!name && count > 1)
        st = ff_error_set(err, FF_EINPUT, r->name, 0, 0,
                          "the stream holds %zu fields (%s): choose one with --name", count,
                          names.text);
    else if (match == 0)
        st = ff_error_set(err, FF_EINPUT, r->name, 0, 0, "no field named '%.64s' (names: %s)",
                          name, names.text);
    else if (second != 0)
        st = ff_error_set(err, FF_EINPUT, r->name, 0, 0,
                          "fields %zu and %zu are both named '%.64s': the choice is ambiguous",
                          match, second, name);
    else
        return FF_OK;
fail:
    ff_field_free(out);
    return st;
}

ff_status ff_field_list(ff_reader *r, FILE *out, ff_error *err)
{
    char (*names)[sizeof ((ff_field *)0)->name] = NULL, (*grown)[sizeof ((ff_field *)0)->name];
    size_t count = 0, cap = 0, k;
    ff_field f;
    ff_status st;

    /* Names are written only once the whole input has read well, so that
     * a bad stream leaves nothing on out. */
    while ((st = ff_field_read(r, &f, err)) == FF_OK) {
        if (count == cap) {
            if (!(grown = ff_grow(names, &cap, count + 1, sizeof *names, 16))) {
                ff_field_free(&f);
                free(names);
                return ff_error_set(err, FF_ENOMEM, r->name, 0, 0, "out of memory");
            }
            names = grown;
        }
        strcpy(names[count++], f.name[0] ? f.name : "-");
        ff_field_free(&f);
    }
    if (st == FF_ENOTFOUND && count == 0)
        st = ff_error_set(err, FF_EINPUT, r->name, 0, 0, "empty input: no ff stream");
    else if (st == FF_ENOTFOUND) {
        st = FF_OK;
        for (k = 0; k < count; k++)
            fprintf(out, "%s\n", names[k]);
        if (fflush(out) != 0 || ferror(out))
            st = ff_error_set(err, FF_EIO, NULL, 0, 0, "write error: %s", strerror(errno));
    }
    free(names);
    return st;
}

ff_status ff_field_list_file(const char *path, uint64_t max_cells, const char *out_path,
                             ff_error *err)
{
    FILE *in = ff_infile_open(path, err);
    ff_outfile out;
    ff_reader reader;
    ff_status st;

    if (!in)
        return err->status;
    if ((st = ff_outfile_open(&out, out_path, err)) != FF_OK) {
        ff_infile_close(in);
        return st;
    }
    ff_reader_init(&reader, in, path);
    reader.max_cells = max_cells;
    st = ff_field_list(&reader, out.f, err);
    ff_infile_close(in);
    if (st != FF_OK) {
        if (!err->file[0])
            snprintf(err->file, sizeof err->file, "%s", out_path ? out_path : "-");
        ff_outfile_abort(&out);
        return st;
    }
    return ff_outfile_commit(&out, err);
}
