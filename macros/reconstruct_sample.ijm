// NUFFT-J example: reconstruct the sample data (ISMRMRD and BART) and save the images as TIFF.
//
// Headless, plain ImageJ 1 (run from the repository root after `mvn package`):
//   java -Djava.awt.headless=true -Dplugins.dir=target/imagej -jar target/ij/ij.jar \
//        -batch macros/reconstruct_sample.ijm /path/to/output/folder
// Fiji:  ImageJ-linux64 --headless -batch macros/reconstruct_sample.ijm /path/to/output/folder
// The argument is the output folder (default: the temporary folder).

call("org.nufftj.ij1.Headless.install"); // needed only by plain ImageJ 1 without a display; harmless elsewhere
out = getArgument();
if (out == "") out = getDirectory("temp");
if (!endsWith(out, "/") && !endsWith(out, "\\")) out = out + File.separator;
if (!File.exists(out)) File.makeDirectory(out); // the output folder, made when missing (one level)
if (!File.isDirectory(out)) exit("output folder " + out + " does not exist and could not be made");
setBatchMode(true);

run("Reconstruct k-space", "kspace=[sample-data/ismrmrd/radial_shepp_logan.h5] device=cpu");
saveAs("Tiff", out + "radial_shepp_logan.tif");
getPixelSize(unit, pw, ph);
print("ISMRMRD sample: " + getWidth() + " x " + getHeight() + ", " + pw + " " + unit + " per pixel -> " + out + "radial_shepp_logan.tif");
close();

run("Reconstruct k-space", "kspace=[sample-data/bart/radial.cfl] dcf=pipe-menon combine=sos device=cpu");
saveAs("Tiff", out + "radial_bart.tif");
print("BART sample: " + getWidth() + " x " + getHeight() + " -> " + out + "radial_bart.tif");
close();
