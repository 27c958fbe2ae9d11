// NUFFT-J example: image the plane-wave UFF sample (sample-data/ultrasound/plane_wave_points.uff: 48 elements, three
// steered transmits, four point scatterers; the acquisition is read from the file) by f-k migration and by
// delay-and-sum, compounded over the three angles, and save both B-modes (calibrated in mm).
//
// Headless (from the repository root after `mvn package`):
//   java -Djava.awt.headless=true -Dplugins.dir=target/imagej -jar target/ij/ij.jar \
//        -batch macros/ultrasound_uff_sample.ijm /path/to/output/folder

call("org.nufftj.ij1.Headless.install");
out = getArgument();
if (out == "") out = getDirectory("temp");
if (!endsWith(out, "/") && !endsWith(out, "\\")) out = out + File.separator;
if (!File.exists(out)) File.makeDirectory(out); // the output folder, made when missing (one level)
if (!File.isDirectory(out)) exit("output folder " + out + " does not exist and could not be made");
setBatchMode(true);

run("Ultrasound plane-wave reconstruction", "file=[sample-data/ultrasound/plane_wave_points.uff] method=fk up=2 log=40 device=cpu");
saveAs("Tiff", out + "uff_fk.tif");
close();
run("Ultrasound plane-wave reconstruction", "file=[sample-data/ultrasound/plane_wave_points.uff] method=das up=2 log=40 device=cpu");
saveAs("Tiff", out + "uff_das.tif");
print("UFF sample: " + getWidth() + " x " + getHeight() + " -> " + out + "uff_fk.tif, uff_das.tif");
close();
