/* sim_model: the simulated sensors as the unit tests drive them (drivers/sensor/regmodel.h): a sim bus with a chip's register model on it, a constant load. */
#ifndef HIL_SIM_MODEL_H
#define HIL_SIM_MODEL_H

struct hil_i2c_bus;
struct hil_regmodel;

/**
 * Open the sim bus spec ("sim:ina226@0x40,shunt=0.002"), whose model is
 * on the host's clock (the sim bus's), or with manual set on its internal
 * clock at 0, which only hil_regmodel_advance() moves.
 * @param m receives the model (borrowed from the bus), or NULL.
 * @return the bus; the caller closes it (and the model with it).
 */
struct hil_i2c_bus *ut_sim_bus(const char *spec, int manual,
			       struct hil_regmodel **m);

/** A constant load on m: current_a at bus_v (the step waveform). */
void ut_model_constant(struct hil_regmodel *m, double bus_v, double current_a);

#endif /* HIL_SIM_MODEL_H */
