#ifndef MLIB_CPULSE_SHIM_H
#define MLIB_CPULSE_SHIM_H
#include <pulse/simple.h>
#include <pulse/error.h>
#endif
