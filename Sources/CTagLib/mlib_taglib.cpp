#include "mlib_taglib.h"
int mlib_taglib_placeholder(void) { return 0; }
