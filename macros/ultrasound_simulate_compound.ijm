// NUFFT-J example: simulate plane-wave echoes of a speckle phantom with an anechoic cyst for five steered transmits,
// then image them by f-k migration, compounded coherently over the angles, as a log-compressed B-mode (mm).
//
// Headless (from the repository root after `mvn package`):
//   java -Djava.awt.headless=true -Dplugins.dir=target/imagej -jar target/ij/ij.jar \
//        -batch macros/ultrasound_simulate_compound.ijm /path/to/output/folder
// The argument is the output folder (default: the temporary folder).

call("org.nufftj.ij1.Headless.install");
out = getArgument();
if (out == "") out = getDirectory("temp");
if (!endsWith(out, "/") && !endsWith(out, "\\")) out = out + File.separator;
if (!File.exists(out)) File.makeDirectory(out); // the output folder, made when missing (one level)
if (!File.isDirectory(out)) exit("output folder " + out + " does not exist and could not be made");
setBatchMode(true);

run("Simulate ultrasound echoes", "phantom=cyst seed=7 angles=-10,-5,0,5,10 elements=64 pitch=0.15 fs=40 c=1540 f0=5 t0=0 depth=25 bandwidth=0.6");
saveAs("Tiff", out + "cyst_channels.tif");
run("Ultrasound plane-wave reconstruction", "method=fk angles=-10,-5,0,5,10 pitch=0.15 fs=40 c=1540 f0=5 t0=0 up=2 log=50 device=cpu");
saveAs("Tiff", out + "cyst_fk_compound.tif");
getPixelSize(unit, pw, ph);
print("cyst, f-k, 5 angles: " + getWidth() + " x " + getHeight() + ", " + pw + " x " + ph + " " + unit + " -> " + out + "cyst_fk_compound.tif");
close();
close();
