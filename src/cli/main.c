#include <stdio.h>
#include "fray/fray.h"
int main(void) { printf("fray %s\n", fray_version()); return 0; }
