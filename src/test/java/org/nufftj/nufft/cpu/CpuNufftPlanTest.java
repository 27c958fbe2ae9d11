package org.nufftj.nufft.cpu;

import org.nufftj.nufft.AbstractNufftPlanTest;
import org.nufftj.nufft.DeviceChoice;

/** The shared NUFFT suite on the CPU engine. */
class CpuNufftPlanTest extends AbstractNufftPlanTest {

	@Override
	protected DeviceChoice device() {
		return DeviceChoice.CPU;
	}
}
