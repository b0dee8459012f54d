/*
 * keydoc.h: the configuration keys, documented (keydoc.c).
 */
#ifndef KEYDOC_H
#define KEYDOC_H

#include <stdio.h>

/*
 * Every key of the configuration, the sources' options included, with
 * its meaning, type, range or words, default and environment variable:
 * keydoc_text() as `jankgate help config` prints it, keydoc_roff() as
 * .TP paragraphs for the man page's CONFIGURATION.
 */
void keydoc_text(FILE *fp);
void keydoc_roff(FILE *fp);

#endif
