/* Nearest tuned problem (runtime/near.h). */
