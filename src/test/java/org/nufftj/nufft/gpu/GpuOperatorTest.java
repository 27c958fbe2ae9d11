package org.nufftj.nufft.gpu;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;
import org.nufftj.nufft.Backend;
import org.nufftj.nufft.Backends;
import org.nufftj.nufft.DeviceChoice;
import org.nufftj.operator.AbstractOperatorTest;

/** The operator layer (adjointness of every operator and composition, FFT and NUFFT operators) on GPU 0. */
@Tag("gpu")
@ExtendWith(GpuTests.Available.class)
public class GpuOperatorTest extends AbstractOperatorTest {

	@Override
	protected Backend open() {
		return Backends.open(DeviceChoice.gpu(0), 0, null);
	}
}
