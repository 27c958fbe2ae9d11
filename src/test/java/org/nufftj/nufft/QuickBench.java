package org.nufftj.nufft;

import java.util.Random;
import org.nufftj.trajectory.Trajectory;

public class QuickBench {
	public static void main(String[] args) {
		int R = 512, S = 402, C = Integer.parseInt(args[0]); double eps = Double.parseDouble(args[1]);
		double sigma = args.length > 2 ? Double.parseDouble(args[2]) : 0; int W = args.length > 3 ? Integer.parseInt(args[3]) : 0;
		double[] c = new double[2*R*S];
		for (int s=0;s<S;s++){ double th = Math.PI*s/S; for(int i=0;i<R;i++){ double k=(i-R/2.0)/R; c[2*(s*R+i)]=k*Math.cos(th); c[2*(s*R+i)+1]=k*Math.sin(th);} }
		Trajectory t = new Trajectory(2, c, "radial");
		int[] size={256,256}; int M=R*S;
		float[] y = new float[2*M*C]; Random r=new Random(1); for(int i=0;i<y.length;i++) y[i]=(float)r.nextGaussian();
		float[] img = new float[2*256*256*C];
		NufftOptions o = NufftOptions.defaults().withTolerance(eps).withOversampling(sigma).withWidth(W);
		try (NufftPlan p = Nufft.plan(size, o)) {
			p.setPoints(t); System.out.println(p.parameters()+" sort "+p.times());
			for (int it=0; it<6; it++) { long t0=System.nanoTime(); p.adjoint(y, img); long t1=System.nanoTime(); p.forward(img, y); long t2=System.nanoTime();
			System.out.printf("adj %.1f ms [%s]  fwd %.1f ms [%s]%n", (t1-t0)/1e6, "", (t2-t1)/1e6, p.times()); }
		}
	}
}
