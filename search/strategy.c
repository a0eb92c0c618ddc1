#include "strategy.h"

#include <string.h>

extern const at_strategy at_strategy_exhaustive;

static const at_strategy *const strategies[] = {
    &at_strategy_exhaustive,
};

const at_strategy *at_strategy_find(const char *name)
{
    for (size_t i = 0; name && i < sizeof strategies / sizeof strategies[0];
         ++i)
        if (strcmp(strategies[i]->name, name) == 0)
            return strategies[i];
    return NULL;
}
