/*
 * newhandler.h - C++'s new-handler for a C module: ODE allocates with C++'s
 * operator new in places (its hash space's tables) besides its own
 * allocator, and an operator new that fails throws std::bad_alloc, which
 * no C frame can catch: the program ended with SIGABRT.
 */
#ifndef PHYS_NEWHANDLER_H
#define PHYS_NEWHANDLER_H

typedef void (*phys_new_handler)(void);

/* Make h the function operator new calls when it finds no memory (null:
 * none, bad_alloc thrown), and return the one before. */
phys_new_handler phys_new_handler_swap(phys_new_handler h);

#endif
