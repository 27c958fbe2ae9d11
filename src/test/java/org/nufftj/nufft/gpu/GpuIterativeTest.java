package org.nufftj.nufft.gpu;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;
import org.nufftj.nufft.Backend;
import org.nufftj.nufft.Backends;
import org.nufftj.nufft.DeviceChoice;
import org.nufftj.recon.iterative.AbstractIterativeTest;

/** The iterative layer (CG, SENSE, Toeplitz normal; adjointness) on GPU 0. */
@Tag("gpu")
@ExtendWith(GpuTests.Available.class)
public class GpuIterativeTest extends AbstractIterativeTest {

	@Override
	protected Backend open() {
		return Backends.open(DeviceChoice.gpu(0), 0, null);
	}
}
