/*
 * mustache_priv.h: the compiled form of a template, shared by
 * mustache_parse.c (which builds it) and mustache_render.c (which walks it).
 * Nothing outside those two files includes this header.
 *
 * A template compiles to a flat array of nodes in source order.  A section
 * node's body is the nodes that follow it up to `end`; close tags, comments
 * and set-delimiter tags leave no node, and standalone lines are already
 * stripped from the text nodes, so rendering never looks at the source
 * syntax again.
 */
#ifndef JG_MUSTACHE_PRIV_H
#define JG_MUSTACHE_PRIV_H

#include <stddef.h>

enum mustache_kind {
	MU_TEXT,		/* literal bytes of the source */
	MU_VAR,			/* {{name}}: escaped */
	MU_RAW,			/* {{{name}}}, {{&name}}: not escaped */
	MU_SECTION,		/* {{#name}} ... {{/name}} */
	MU_INVERTED,		/* {{^name}} ... {{/name}} */
	MU_PARTIAL,		/* {{>name}} */
};

struct mustache_node {
	enum mustache_kind kind;
	unsigned line, col;	/* where the tag starts, for render errors */
	size_t off, len;	/* MU_TEXT: a range of mustache.src */
	char *name;		/* tags: the name as written ("a.b", ".") */
	/*
	 * Variables and sections: the name split at its dots into `nparts`
	 * NUL-terminated strings laid end to end; NULL with nparts 0 for ".".
	 */
	char *path;
	size_t nparts;
	size_t end;		/* sections: the node after the body */
	char *indent;		/* standalone partial: indent or NULL */
};

struct mustache {
	char *name;		/* for error messages */
	char *src;		/* a private copy; text nodes point into it */
	size_t len;
	struct mustache_node *nodes;
	size_t nr, alloc;
};

#endif
