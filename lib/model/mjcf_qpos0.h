/*
 * mjcf_qpos0.h - what MuJoCo's compiler derives from an MJCF model's mass
 * matrix at qpos0 (mjcf_qpos0.c): a position servo's dampratio and a
 * joint's springdamper made dampings and stiffnesses.
 */
#ifndef PHYS_MJCF_QPOS0_H
#define PHYS_MJCF_QPOS0_H

struct reader;

/* Into r's actuators and joints, once the masses are final: 0, or -1
 * with phys_error() at the joint whose springdamper cannot be made. */
int phys_mjcf_from_qpos0(struct reader *r);

#endif
