// CLinux is header-only; this file gives the target something to compile.
#include "clinux.h"
