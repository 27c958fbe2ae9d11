package org.nufftj.nufft.cpu;

import org.nufftj.nufft.Backend;
import org.nufftj.operator.AbstractOperatorTest;

/** The operator layer on the CPU backend. */
class CpuOperatorTest extends AbstractOperatorTest {

	@Override
	protected Backend open() {
		return new CpuBackend(2);
	}
}
