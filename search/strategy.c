#include "strategy.h"

#include <string.h>

extern const at_strategy at_strategy_exhaustive, at_strategy_random,
    at_strategy_local, at_strategy_genetic;

static const at_strategy *const strategies[] = {
    &at_strategy_exhaustive,
    &at_strategy_random,
    &at_strategy_local,
    &at_strategy_genetic,
};
enum { N_STRATEGIES = sizeof strategies / sizeof strategies[0] };

const at_strategy *at_strategy_find(const char *name)
{
    for (size_t i = 0; name && i < N_STRATEGIES; ++i)
        if (strcmp(strategies[i]->name, name) == 0)
            return strategies[i];
    return NULL;
}

const at_strategy *at_strategy_at(size_t i)
{
    return i < N_STRATEGIES ? strategies[i] : NULL;
}

const char *at_strategy_list(void)
{
    return "exhaustive, random, local, genetic";
}
