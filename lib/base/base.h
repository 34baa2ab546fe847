/*
 * base.h - the base layer: what every other part of phys may use, and
 * which uses nothing of phys. One header per concern; this one takes
 * them all.
 */
#ifndef PHYS_BASE_H
#define PHYS_BASE_H

#include "msg.h"
#include "num.h"
#include "buf.h"
#include "mem.h"
#include "file.h"
#include "atomic.h"
#include "stop.h"
#include "names.h"
#include "term.h"
#include "cli.h"

#endif
