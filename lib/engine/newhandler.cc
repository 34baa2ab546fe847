/*
 * newhandler.cc - C++'s new-handler set from C (newhandler.h).
 */
#include <new>

extern "C" {
#include "newhandler.h"
}

extern "C" phys_new_handler
phys_new_handler_swap(phys_new_handler h)
{
	return std::set_new_handler(h);
}
