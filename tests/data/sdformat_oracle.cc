// sdformat_oracle.cc - a robot as Debian's libsdformat reads it: the
// independent reference the tests compare phys's URDF conversion and SDF
// frames with. Loads one file (URDF or SDF) through sdf::Root::Load, which is
// what Gazebo and gz-sim do, and prints one JSON line per model, link,
// collision and joint, nested models too ("outer::inner"), poses in the
// world frame as libsdformat's frame graph resolves them (a model's
// placement frame and relative_to included), masses and inertia in the link's inertial frame, each
// collision's friction and contact values as its <surface> says.
//
// Build: c++ sdformat_oracle.cc $(pkg-config --cflags --libs sdformat12)
// Exit 1, with libsdformat's errors on standard error, when it refuses
// the file.

#include <cstdio>
#include <iostream>
#include <string>

#include <sdf/sdf.hh>

static void
put_pose(const char *key, const ignition::math::Pose3d &p)
{
	ignition::math::Vector3d e = p.Rot().Euler();

	std::printf(",\"%s\":[%.17g,%.17g,%.17g,%.17g,%.17g,%.17g]", key,
	    p.Pos().X(), p.Pos().Y(), p.Pos().Z(), e.X(), e.Y(), e.Z());
}

static void
put_name(const char *key, const std::string &s)
{
	std::printf("{\"%s\":\"%s\"", key, s.c_str());
}

// A number under an element path, or nothing when the path is absent.
static void
put_element(const char *key, sdf::ElementPtr e, const char *const *path)
{
	for (; *path; path++) {
		if (!e || !e->HasElement(*path))
			return;
		e = e->GetElement(*path);
	}
	std::printf(",\"%s\":%.17g", key, e->Get<double>());
}

static void
put_collision(const std::string &scope, const sdf::Collision *c,
    const ignition::math::Pose3d &link)
{
	static const char *const mu[] = { "surface", "friction", "ode", "mu",
		nullptr };
	static const char *const mu2[] = { "surface", "friction", "ode",
		"mu2", nullptr };
	static const char *const kp[] = { "surface", "contact", "ode", "kp",
		nullptr };
	static const char *const kd[] = { "surface", "contact", "ode", "kd",
		nullptr };
	static const char *const maxc[] = { "max_contacts", nullptr };
	ignition::math::Pose3d p;

	c->SemanticPose().Resolve(p);	/* in its link's frame */
	put_name("collision", scope + "::" + c->Name());
	put_pose("pose", p + link);
	put_element("mu", c->Element(), mu);
	put_element("mu2", c->Element(), mu2);
	put_element("kp", c->Element(), kp);
	put_element("kd", c->Element(), kd);
	put_element("max_contacts", c->Element(), maxc);
	std::printf("}\n");
}

static void
put_link(const std::string &model, const sdf::Link *l,
    const ignition::math::Pose3d &mp)
{
	ignition::math::Pose3d p;
	const ignition::math::Inertiald &in = l->Inertial();
	const ignition::math::Matrix3d m = in.MassMatrix().Moi();
	std::string scope = model + "::" + l->Name();

	l->SemanticPose().Resolve(p, "__model__");
	p = p + mp;
	put_name("link", scope);
	put_pose("pose", p);
	std::printf(",\"mass\":%.17g", in.MassMatrix().Mass());
	put_pose("inertial_pose", in.Pose());
	std::printf(",\"ixx\":%.17g,\"iyy\":%.17g,\"izz\":%.17g,"
	    "\"ixy\":%.17g,\"ixz\":%.17g,\"iyz\":%.17g,\"gravity\":%s}\n",
	    m(0, 0), m(1, 1), m(2, 2), m(0, 1), m(0, 2), m(1, 2),
	    l->Element()->HasElement("gravity") &&
	    !l->Element()->Get<bool>("gravity") ? "false" : "true");
	for (uint64_t i = 0; i < l->CollisionCount(); i++)
		put_collision(scope, l->CollisionByIndex(i), p);
}

static void
put_joint(const std::string &model, const sdf::Joint *j,
    const ignition::math::Pose3d &mp)
{
	static const char *const types[] = { "invalid", "ball", "continuous",
		"fixed", "gearbox", "prismatic", "revolute", "revolute2",
		"screw", "universal" };
	const sdf::JointAxis *a = j->Axis(0);
	ignition::math::Pose3d p;
	ignition::math::Vector3d xyz;
	unsigned t = static_cast<unsigned>(j->Type());

	j->SemanticPose().Resolve(p, "__model__");
	put_name("joint", model + "::" + j->Name());
	std::printf(",\"type\":\"%s\",\"parent\":\"%s\",\"child\":\"%s\"",
	    t < sizeof types / sizeof *types ? types[t] : "?",
	    j->ParentLinkName().c_str(), j->ChildLinkName().c_str());
	put_pose("pose", p + mp);
	if (a) {
		a->ResolveXyz(xyz, "__model__");
		xyz = mp.Rot() * xyz;
		std::printf(",\"axis\":[%.17g,%.17g,%.17g],\"lower\":%.17g,"
		    "\"upper\":%.17g,\"damping\":%.17g,\"friction\":%.17g",
		    xyz.X(), xyz.Y(), xyz.Z(), a->Lower(), a->Upper(),
		    a->Damping(), a->Friction());
	}
	std::printf("}\n");
}

/* Model m at p in the world, scope the names of the models holding it. */
static void
put_model(const sdf::Model *m, const std::string &scope,
    const ignition::math::Pose3d &p)
{
	std::string name = scope.empty() ? m->Name() : scope + "::" + m->Name();
	ignition::math::Pose3d q;

	put_name("model", name);
	put_pose("pose", p);
	std::printf(",\"static\":%s}\n", m->Static() ? "true" : "false");
	for (uint64_t i = 0; i < m->LinkCount(); i++)
		put_link(name, m->LinkByIndex(i), p);
	for (uint64_t i = 0; i < m->JointCount(); i++)
		put_joint(name, m->JointByIndex(i), p);
	for (uint64_t i = 0; i < m->ModelCount(); i++) {
		const sdf::Model *n = m->ModelByIndex(i);

		for (const sdf::Error &e : n->SemanticPose().Resolve(q,
		    "__model__"))
			std::cerr << "sdformat_oracle: " << e.Message() << "\n";
		put_model(n, name, q + p);
	}
}

int
main(int argc, char **argv)
{
	sdf::Root root;
	sdf::Errors errors;

	if (argc != 2) {
		std::cerr << "usage: sdformat_oracle FILE\n";
		return 2;
	}
	errors = root.Load(argv[1]);
	for (const sdf::Error &e : errors)
		std::cerr << "sdformat_oracle: " << e.Message() << "\n";
	if (!errors.empty())
		return 1;
	/* a model file's own model stands where its pose says */
	if (root.Model())
		put_model(root.Model(), "", root.Model()->RawPose());
	for (uint64_t w = 0; w < root.WorldCount(); w++)
		for (uint64_t i = 0; i < root.WorldByIndex(w)->ModelCount();
		    i++) {
			const sdf::Model *m = root.WorldByIndex(w)->
			    ModelByIndex(i);
			ignition::math::Pose3d p;

			for (const sdf::Error &e : m->SemanticPose().Resolve(p,
			    "world"))
				std::cerr << "sdformat_oracle: " << e.Message() <<
				    "\n";
			put_model(m, "", p);
		}
	return 0;
}
