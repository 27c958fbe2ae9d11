package org.nufftj.io;

import java.io.StringReader;
import java.util.Arrays;

import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;

import org.nufftj.InvalidInputException;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;
import org.xml.sax.InputSource;

/**
 * The parts of an ISMRMRD XML header ({@code /dataset/xml}, schema ismrmrd.xsd) that a non-Cartesian reconstruction
 * needs: the first {@code <encoding>}'s encoded and recon space (matrix size, field of view in mm), its trajectory type
 * and the {@code kspace_encoding_step_1/2} encoding limits (used to centre Cartesian data that has no stored
 * trajectory). Parsed with the JDK's DOM parser, DTDs and external entities disabled.
 */
public final class IsmrmrdHeader {

	private final int[] encodedMatrix;
	private final double[] encodedFov;
	private final int[] reconMatrix;
	private final double[] reconFov;
	private final String trajectory;
	private final int[] step1Limits;
	private final int[] step2Limits;
	private final int receiverChannels;
	private final int encodings;

	IsmrmrdHeader(final int[] encodedMatrix, final double[] encodedFov, final int[] reconMatrix,
		final double[] reconFov, final String trajectory, final int[] step1Limits, final int[] step2Limits,
		final int receiverChannels, final int encodings)
	{
		this.encodedMatrix = encodedMatrix;
		this.encodedFov = encodedFov;
		this.reconMatrix = reconMatrix;
		this.reconFov = reconFov;
		this.trajectory = trajectory;
		this.step1Limits = step1Limits;
		this.step2Limits = step2Limits;
		this.receiverChannels = receiverChannels;
		this.encodings = encodings;
	}

	// -- public API --

	/** Parses the header text; {@code source} names the file in error messages. */
	public static IsmrmrdHeader parse(final String xml, final String source) {
		final Document doc;
		try {
			final DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
			f.setNamespaceAware(false);
			f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
			f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
			f.setExpandEntityReferences(false);
			final DocumentBuilder b = f.newDocumentBuilder();
			b.setErrorHandler(null);
			doc = b.parse(new InputSource(new StringReader(xml)));
		}
		catch (final Exception e) {
			throw new InvalidInputException(source + ": /dataset/xml is not a readable ISMRMRD XML header (" +
				oneLine(e.getMessage()) + ")");
		}
		final Element root = doc.getDocumentElement();
		if (!"ismrmrdHeader".equals(localName(root))) throw new InvalidInputException(source +
			": /dataset/xml root element is <" + localName(root) + ">, expected <ismrmrdHeader>");
		final NodeList encList = byName(root, "encoding");
		if (encList.getLength() == 0) throw new InvalidInputException(source +
			": ISMRMRD header has no <encoding> section");
		final Element enc = (Element) encList.item(0);
		final Element encoded = child(enc, "encodedSpace", source);
		final Element recon = child(enc, "reconSpace", source);
		final int[] em = matrix(child(encoded, "matrixSize", source), source + " encodedSpace");
		final double[] ef = fov(child(encoded, "fieldOfView_mm", source), source + " encodedSpace");
		final int[] rm = matrix(child(recon, "matrixSize", source), source + " reconSpace");
		final double[] rf = fov(child(recon, "fieldOfView_mm", source), source + " reconSpace");
		final Element traj = optionalChild(enc, "trajectory");
		final String t = traj == null ? "cartesian" : traj.getTextContent().trim().toLowerCase();
		final Element limits = optionalChild(enc, "encodingLimits");
		final int[] s1 = limits == null ? null : limit(optionalChild(limits, "kspace_encoding_step_1"));
		final int[] s2 = limits == null ? null : limit(optionalChild(limits, "kspace_encoding_step_2"));
		int channels = 0;
		final Element sys = optionalChild(root, "acquisitionSystemInformation");
		if (sys != null) {
			final Element rc = optionalChild(sys, "receiverChannels");
			if (rc != null) channels = parseInt(rc.getTextContent(), source + " receiverChannels");
		}
		return new IsmrmrdHeader(em, ef, rm, rf, t, s1, s2, channels, encList.getLength());
	}

	/** Encoded space matrix (x = readout incl. oversampling, y, z). */
	public int[] encodedMatrix() { return encodedMatrix.clone(); }

	/** Encoded space field of view in mm (x, y, z). */
	public double[] encodedFov() { return encodedFov.clone(); }

	/** Reconstruction matrix (x, y, z). */
	public int[] reconMatrix() { return reconMatrix.clone(); }

	/** Reconstruction field of view in mm (x, y, z). */
	public double[] reconFov() { return reconFov.clone(); }

	/** Trajectory type in lower case: cartesian, radial, spiral, epi, goldenangle, other … */
	public String trajectory() { return trajectory; }

	/** {min, max, center} of kspace_encoding_step_1, or null when the header has none. */
	public int[] step1Limits() { return step1Limits == null ? null : step1Limits.clone(); }

	/** {min, max, center} of kspace_encoding_step_2, or null. */
	public int[] step2Limits() { return step2Limits == null ? null : step2Limits.clone(); }

	/** receiverChannels, or 0 when the header does not say. */
	public int receiverChannels() { return receiverChannels; }

	/** Number of {@code <encoding>} sections (only the first is used). */
	public int encodings() { return encodings; }

	/** Pixel size of the recon space in mm (FOV / matrix) per axis; NaN where either is 0. */
	public double[] reconPixelMm() {
		final double[] p = new double[3];
		for (int a = 0; a < 3; a++) p[a] = reconMatrix[a] > 0 && reconFov[a] > 0 ? reconFov[a] / reconMatrix[a] : Double.NaN;
		return p;
	}

	/** Pixel size of the encoded space in mm per axis; NaN where either is 0. */
	public double[] encodedPixelMm() {
		final double[] p = new double[3];
		for (int a = 0; a < 3; a++)
			p[a] = encodedMatrix[a] > 0 && encodedFov[a] > 0 ? encodedFov[a] / encodedMatrix[a] : Double.NaN;
		return p;
	}

	@Override
	public String toString() {
		return "encoded " + Arrays.toString(encodedMatrix) + " over " + Arrays.toString(encodedFov) + " mm, recon " +
			Arrays.toString(reconMatrix) + " over " + Arrays.toString(reconFov) + " mm, trajectory " + trajectory;
	}

	// -- helpers --

	private static String localName(final Node n) {
		final String name = n.getNodeName();
		final int colon = name.indexOf(':');
		return colon < 0 ? name : name.substring(colon + 1);
	}

	private static NodeList byName(final Element e, final String name) {
		return e.getElementsByTagName(name);
	}

	private static Element optionalChild(final Element parent, final String name) {
		for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling())
			if (n instanceof Element && name.equals(localName(n))) return (Element) n;
		return null;
	}

	private static Element child(final Element parent, final String name, final String source) {
		final Element c = optionalChild(parent, name);
		if (c == null) throw new InvalidInputException(source + ": ISMRMRD header <" + localName(parent) +
			"> has no <" + name + ">");
		return c;
	}

	private static int[] matrix(final Element m, final String where) {
		final int[] v = new int[3];
		final String[] axes = { "x", "y", "z" };
		for (int a = 0; a < 3; a++) {
			final Element c = optionalChild(m, axes[a]);
			v[a] = c == null ? 1 : parseInt(c.getTextContent(), where + " matrixSize." + axes[a]);
			if (v[a] < 1) throw new InvalidInputException(where + " matrixSize." + axes[a] + " is " + v[a] +
				", expected >= 1");
		}
		return v;
	}

	private static double[] fov(final Element m, final String where) {
		final double[] v = new double[3];
		final String[] axes = { "x", "y", "z" };
		for (int a = 0; a < 3; a++) {
			final Element c = optionalChild(m, axes[a]);
			if (c == null) continue;
			try {
				v[a] = Double.parseDouble(c.getTextContent().trim());
			}
			catch (final NumberFormatException e) {
				throw new InvalidInputException(where + " fieldOfView_mm." + axes[a] + " is '" +
					c.getTextContent().trim() + "', expected a number");
			}
		}
		return v;
	}

	private static int[] limit(final Element l) {
		if (l == null) return null;
		final int[] v = new int[3];
		final String[] names = { "minimum", "maximum", "center" };
		for (int i = 0; i < 3; i++) {
			final Element c = optionalChild(l, names[i]);
			if (c == null) return null;
			v[i] = parseInt(c.getTextContent(), "encodingLimits " + names[i]);
		}
		return v;
	}

	private static int parseInt(final String s, final String where) {
		try {
			return Integer.parseInt(s.trim());
		}
		catch (final NumberFormatException e) {
			throw new InvalidInputException(where + " is '" + s.trim() + "', expected an integer");
		}
	}

	static String oneLine(final String s) {
		return s == null ? "no detail" : s.replaceAll("\\s+", " ").trim();
	}
}
