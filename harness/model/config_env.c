/*
 * config_env.c: JANKGATE_* variables that name nothing jankgate reads.
 *
 * Every key can be set from the environment (config.c), so a misspelt
 * variable (JANKGATE_ITERATONS=3) would otherwise be ignored in silence
 * and the run would use the file's value.  The names jankgate reads are
 * the keys' variables, JANKGATE_CONFIG, the credential variables the
 * configuration names (mail.user_env, mail.password_env,
 * baseline.token_env) with their defaults, JANKGATE_DEMO_DIR, which
 * `make demo` reads, and JANKGATE_TEST_CLOCK_SCALE, the tests' time scale
 * (monoclock.h).  Anything else under the prefix is reported with the
 * nearest known name, when one is close.
 */
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "config_int.h"
#include "strlist.h"
#include "xalloc.h"
#include "banned.h"

#define PREFIX "JANKGATE_"

static const char *const extra_names[] = {
	"JANKGATE_CONFIG", "JANKGATE_SMTP_USER", "JANKGATE_SMTP_PASSWORD",
	"JANKGATE_GIT_TOKEN", "JANKGATE_DEMO_DIR", "JANKGATE_TEST_CLOCK_SCALE",
	NULL
};

/* The table's keys, and with `cfg` the options of its plug-ins. */
static void
known_names(const struct config *cfg, struct strlist *out)
{
	struct config_schema sch;

	config_schema_init(&sch, cfg ? cfg->plugins : NULL, NULL);
	for (size_t i = 0; i < sch.nr; i++) {
		char *name;

		if (!config_key_scalar(sch.keys[i].type))
			continue;
		name = config_env_name(sch.keys[i].path);
		strlist_add(out, name);
		free(name);
	}
	config_schema_release(&sch);
	for (size_t i = 0; extra_names[i]; i++)
		strlist_add(out, extra_names[i]);
	if (!cfg)
		return;
	if (cfg->mail.user_env)
		strlist_add(out, cfg->mail.user_env);
	if (cfg->mail.password_env)
		strlist_add(out, cfg->mail.password_env);
	if (cfg->baseline.token_env)
		strlist_add(out, cfg->baseline.token_env);
}

size_t
config_env_unknown(const struct config *cfg, char *const *envp,
    struct strlist *warnings)
{
	struct strlist known = STRLIST_INIT;
	size_t n = 0;

	known_names(cfg, &known);
	for (; envp && *envp; envp++) {
		const char *eq = strchr(*envp, '=');
		char *name;
		const char *best = NULL;
		size_t best_d = 3;	/* at most two edits away */

		if (strncmp(*envp, PREFIX, strlen(PREFIX)) || !eq)
			continue;
		name = xstrndup(*envp, (size_t)(eq - *envp));
		if (strlist_find(&known, name) >= 0) {
			free(name);
			continue;
		}
		for (size_t i = 0; i < known.nr; i++) {
			size_t d = config_edit_distance(name, known.items[i]);

			if (d < best_d) {
				best_d = d;
				best = known.items[i];
			}
		}
		if (best)
			strlist_addf(warnings, "environment %s: no such "
			    "variable, ignored (did you mean %s?)", name, best);
		else
			strlist_addf(warnings, "environment %s: no such "
			    "variable, ignored (see ENVIRONMENT in "
			    "jankgate(1))", name);
		free(name);
		n++;
	}
	strlist_release(&known);
	return n;
}
