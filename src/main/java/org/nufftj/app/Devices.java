package org.nufftj.app;

import java.util.ArrayList;
import java.util.List;

import org.nufftj.InvalidInputException;
import org.nufftj.nufft.DeviceChoice;

/**
 * Device lists: the {@code --device} / {@code --devices} values that name more than one device, for a reconstruction
 * split over devices ({@link Reconstruction#run(Scan, org.nufftj.recon.ReconOptions, org.nufftj.recon.Progress,
 * Session, List)}) and for {@code nufft-j batch}'s workers.
 */
public final class Devices {

	private Devices() {}

	// -- public API --

	/**
	 * The devices of {@code spec}: {@code gpu:all} → every GPU the driver reports (none: an error naming why); a comma
	 * list such as {@code gpu:0,gpu:1}, its short form {@code gpu:0,1} (a bare number after a GPU names another GPU),
	 * or {@code cpu,cpu}; or one device ({@link DeviceChoice#parse}). Never empty.
	 */
	public static List<DeviceChoice> parse(final String spec) {
		InvalidInputException.require(spec != null && !spec.isBlank(), "device: expected auto, cpu, gpu, gpu:N, " +
			"gpu:all or a comma list of these, found nothing");
		final List<DeviceChoice> out = new ArrayList<>();
		if (spec.trim().equalsIgnoreCase("gpu:all")) {
			final int n = Session.gpuCount();
			InvalidInputException.require(n > 0, "device gpu:all: no GPU found (" + Session.unusableReason(0) + ")");
			for (int i = 0; i < n; i++) out.add(DeviceChoice.gpu(i));
			return out;
		}
		for (final String s : spec.split(",", -1)) {
			final String t = s.trim();
			InvalidInputException.require(!t.isEmpty(), "device: empty entry in the list '" + spec + "'");
			final boolean number = t.chars().allMatch(Character::isDigit);
			if (number) {
				InvalidInputException.require(!out.isEmpty() && out.get(out.size() - 1).kind() == DeviceChoice.Kind.GPU,
					"device: '" + t + "' in '" + spec + "' names a GPU ordinal but follows no gpu entry (write gpu:" + t + ")");
				out.add(DeviceChoice.parse("gpu:" + t));
			}
			else out.add(DeviceChoice.parse(t));
		}
		return out;
	}
}
