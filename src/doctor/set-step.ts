import type { DoctorStep, DoctorStepId } from './doctor-types.js';

/** Records a step's outcome; every step reporter gets one. */
export type SetStep = (id: DoctorStepId, status: DoctorStep['status'], finding: string, extra?: Partial<DoctorStep>) => void;
