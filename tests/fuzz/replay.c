/*
 * replay.c: run a fuzz target over files, without libFuzzer.
 *
 * Each tests/fuzz/fuzz_*.c target is linked with this main() by gcc into
 * BUILD/fuzz-replay/ (`make fuzz-seeds`), so `make check` and the
 * sanitizer build feed every seed (the unit tests' inputs, the demo
 * scenarios) through every parser's target without clang.  Each input is
 * copied into a buffer of exactly its size, so a read past its end is an
 * out-of-bounds read under ASan, as under libFuzzer.  A target reports a
 * broken invariant by abort(); this driver adds nothing to the check.
 *
 * Usage: fuzz_NAME FILE-OR-DIR...   (directories are walked, sorted)
 * Prints "fuzz_NAME: N inputs" and exits 0, or 2 when an argument cannot
 * be read.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "error.h"
#include "fileio.h"
#include "strbuf.h"
#include "xalloc.h"
#include "banned.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int
replay_file(const char *path, long *count)
{
	struct strbuf sb;
	uint8_t *exact;

	strbuf_init(&sb, 0);
	if (file_read(&sb, path)) {
		fprintf(stderr, "replay: %s\n", jg_error_msg());
		strbuf_release(&sb);
		return -1;
	}
	/* exactly sb.len bytes, as libFuzzer hands them over */
	exact = xmalloc(sb.len ? sb.len : 1);
	memcpy(exact, sb.buf, sb.len);
	LLVMFuzzerTestOneInput(exact, sb.len);
	free(exact);
	strbuf_release(&sb);
	(*count)++;
	return 0;
}

static int
cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int
replay_path(const char *path, long *count)
{
	struct stat st;
	DIR *d;
	struct dirent *e;
	char **names = NULL;
	size_t nr = 0, i;
	int ret = 0;

	if (stat(path, &st)) {
		fprintf(stderr, "replay: cannot stat '%s': %m\n", path);
		return -1;
	}
	if (!S_ISDIR(st.st_mode))
		return replay_file(path, count);
	d = opendir(path);
	if (!d) {
		fprintf(stderr, "replay: cannot open '%s': %m\n", path);
		return -1;
	}
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		names = xreallocarray(names, nr + 1, sizeof(*names));
		names[nr++] = xasprintf("%s/%s", path, e->d_name);
	}
	closedir(d);
	qsort(names, nr, sizeof(*names), cmp_names);
	for (i = 0; i < nr; i++) {
		if (replay_path(names[i], count))
			ret = -1;
		free(names[i]);
	}
	free(names);
	return ret;
}

int
main(int argc, char **argv)
{
	const char *name = strrchr(argv[0], '/');
	long count = 0;
	int i, ret = 0;

	name = name ? name + 1 : argv[0];
	for (i = 1; i < argc; i++)
		if (replay_path(argv[i], &count))
			ret = 2;
	printf("%s: %ld inputs\n", name, count);
	return ret;
}
