/*
 * fray/fray.h - the whole public API of libfray, a tabletop combat engine.
 * See README.md for a first example and docs/architecture.md for the design.
 */
#ifndef FRAY_FRAY_H
#define FRAY_FRAY_H

#include "fray/common.h"
#include "fray/rng.h"
#include "fray/cards.h"
#include "fray/flip.h"
#include "fray/odds.h"
#include "fray/dice.h"
#include "fray/towers.h"
#include "fray/encounter.h"
#include "fray/fight.h"
#include "fray/grid.h"
#include "fray/sim.h"
#include "fray/report.h"
#include "fray/duel.h"
#include "fray/view.h"

#define FRAY_VERSION_MAJOR 0
#define FRAY_VERSION_MINOR 1
#define FRAY_VERSION_PATCH 0
#define FRAY_VERSION_STRING "0.1.0"

#ifdef __cplusplus
extern "C" {
#endif
/* The library's version string (may differ from the header's). */
FRAY_API const char *fray_version(void);
#ifdef __cplusplus
}
#endif
#endif
