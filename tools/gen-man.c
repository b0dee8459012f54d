/*
 * gen-man.c: the installed man page, the checked-in one with its list of
 * configuration keys generated (the Makefile's BUILD/jankgate.1).
 *
 *	gen-man IN OUT
 *
 * copies IN (harness/cli/jankgate.1) to OUT with the lines between
 *
 *	.\" BEGIN GENERATED: config keys
 *	.\" END GENERATED: config keys
 *
 * replaced by keydoc_roff(): every key of config_keys.c and of the
 * sources' options, as `jankgate help config` prints them.  The page in
 * the tree keeps the generated lines too, so `man -l` reads a whole page
 * from a fresh clone; tests/docs/check-docs.py fails when it differs
 * from OUT, and says to copy OUT over it.  Exit 0, or 1 with a message
 * when a file cannot be read or written or a marker is missing.
 */
#include <stdio.h>
#include <string.h>

#include "keydoc.h"

#define BEGIN_MARK ".\\\" BEGIN GENERATED: config keys\n"
#define END_MARK ".\\\" END GENERATED: config keys\n"

int
main(int argc, char **argv)
{
	char line[4096];
	FILE *in, *out;
	int state = 0;	/* 0 before, 1 inside, 2 after the markers */

	if (argc != 3) {
		fputs("usage: gen-man IN OUT\n", stderr);
		return 1;
	}
	in = fopen(argv[1], "r");
	if (!in) {
		perror(argv[1]);
		return 1;
	}
	out = fopen(argv[2], "w");
	if (!out) {
		perror(argv[2]);
		fclose(in);
		return 1;
	}
	while (fgets(line, sizeof(line), in)) {
		if (state == 0 && !strcmp(line, BEGIN_MARK)) {
			fputs(line, out);
			keydoc_roff(out);
			state = 1;
		} else if (state == 1 && !strcmp(line, END_MARK)) {
			fputs(line, out);
			state = 2;
		} else if (state != 1) {
			fputs(line, out);
		}
	}
	fclose(in);
	if (fclose(out) != 0 || state != 2) {
		fprintf(stderr, "gen-man: %s: %s\n", argv[1], state != 2 ?
		    "no BEGIN and END GENERATED: config keys markers" :
		    "write error");
		remove(argv[2]);
		return 1;
	}
	return 0;
}
