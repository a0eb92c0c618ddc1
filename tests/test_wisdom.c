#include <stdio.h>
int main(void) { printf("1..1\nok 1 # SKIP not written yet\n"); return 0; }
