package demo

var industrialIndustries = []industrySpec{
	{
		label: "CONSTRUCTION", weight: 6, arch: archIndustrial, size: -1,
		kinds:   "construction company, general contractor, building contractor",
		names:   "Construction, Builders, Contractors, Building",
		models:  "B2B:6 B2C:3 B2G:1",
		related: "REAL_ESTATE ARCHITECTURE_DESIGN MANUFACTURING",
		vendors: "procore.com autodesk.com buildertrend.com bluebeam.com docusign.com",
		terms: "construction, projects, job sites, contractors, subcontractors, building projects, safety record, " +
			"licensed and insured crews, project managers, estimates, schedules, quality workmanship, building codes, permits, " +
			"site supervision, crews, on-budget delivery, free estimates, project portfolio",
		niches: []nicheSpec{
			{"residential remodeling",
				"homeowners, families, landlords, house flippers, interior designers, retirees",
				"home remodeling, kitchen remodeling, bathroom renovation, basement finishing, home additions, room additions, " +
					"custom cabinets, countertops, tile installation, flooring installation, hardwood floors, walk-in showers, " +
					"open floor plans, load-bearing walls, design-build remodeling, 3D design renderings, whole-house renovation, " +
					"attic conversions, garage conversions, accessory dwelling units, ADUs, decks and patios, sunrooms, " +
					"window replacement, siding, roofing, drywall, painting, trim carpentry, aging-in-place remodeling, " +
					"accessible bathrooms, historic home restoration, lighting upgrades, remodeling showroom, home improvement loans, " +
					"before and after photos, " +
					"remodeling contractor, renovation projects, design consultations for homes, kitchen islands"},
			{"commercial construction",
				"developers, retailers, hospitals, schools, corporate owners, public agencies",
				"commercial construction, general contracting, construction management, design-build, preconstruction services, " +
					"tenant improvements, office fit-outs, retail build-outs, healthcare construction, education facilities, " +
					"hospitality construction, industrial buildings, warehouses construction, tilt-up construction, steel erection, " +
					"concrete work, site work, value engineering, bid packages, construction scheduling, BIM coordination, " +
					"MEP coordination, punch lists, change orders, closeout documents, OSHA safety, construction manager at risk, " +
					"hard bid projects, ground-up construction, renovations in occupied buildings, LEED projects, " +
					"modular construction, prefabrication, design-assist, owner's representative, " +
					"commercial builders, construction schedules for owners, jobsite safety plans, facility expansions, " +
					"fit-out contractors"},
			{"civil and infrastructure",
				"municipalities, state DOTs, utilities, developers, port authorities, water districts",
				"civil construction, infrastructure projects, road construction, highway paving, asphalt paving, bridges, " +
					"earthworks, excavation, grading, site development, underground utilities, storm drainage, sewer lines, " +
					"water mains, directional drilling, trenching, retaining walls, culverts, concrete paving, curb and gutter, " +
					"traffic control, heavy equipment, dump trucks, aggregate hauling, demolition, land clearing, " +
					"erosion control, public works, DOT contracts, prevailing wage, bonding capacity, airport construction, " +
					"rail construction, marine construction, dredging, pile driving, " +
					"roadworks, civil contractors, stormwater infrastructure, bridge rehabilitation"},
			{"specialty trades",
				"general contractors, homeowners, property managers, builders, facility managers, restaurants",
				"electrical contractors, plumbing services, HVAC installation, roofing contractors, heating and cooling, " +
					"air conditioning repair, furnace replacement, heat pumps, water heaters, drain cleaning, sewer repair, " +
					"electrical panels, EV charger installation, generator installation, rewiring, lighting installation, " +
					"commercial roofing, flat roofs, metal roofing, roof repair, gutter installation, insulation, " +
					"spray foam insulation, fire sprinkler systems, fire alarm installation, masonry, concrete contractors, " +
					"foundation repair, waterproofing, drywall contractors, painting contractors, welding services, " +
					"glass and glazing, service agreements, emergency repairs, " +
					"licensed electricians, master plumbers, HVAC technicians, roofing crews, service calls, " +
					"maintenance plans for HVAC"},
		},
	},
	{
		label: "ARCHITECTURE_DESIGN", weight: 2, arch: archServices, size: -1,
		kinds:   "architecture firm, design studio, architecture practice",
		names:   "Architects, Design, Studio, Interiors",
		models:  "B2B:6 B2C:4",
		related: "CONSTRUCTION REAL_ESTATE CONSULTING",
		vendors: "autodesk.com squarespace.com adobe.com vimeo.com issuu.com",
		terms: "architecture, design, architects, designers, design process, projects, clients, concept design, " +
			"sketches, renderings, design excellence, awards, portfolio, sustainability, spaces, materials, planning, " +
			"collaboration, design team, built environment",
		niches: []nicheSpec{
			{"residential architecture",
				"homeowners, families, developers, builders, second-home owners, custom home buyers",
				"custom homes, residential architecture, home design, modern houses, passive house design, house extensions, " +
					"renovation design, heritage homes, planning permission, building permits, site analysis, schematic design, " +
					"design development, construction documents, 3D visualizations, floor plan design, natural light, " +
					"energy-efficient homes, net-zero homes, timber frame, courtyard houses, beach houses, mountain homes, " +
					"multi-generational homes, accessory dwelling design, landscape integration, material palette, " +
					"bespoke joinery, kitchen design, staircases, outdoor living spaces, builder selection, " +
					"construction administration, architectural photography, feasibility studies, " +
					"architect-designed homes, home renovations design, house plans, " +
					"architectural design services, house design"},
			{"commercial and civic architecture",
				"developers, universities, hospitals, cities, cultural institutions, corporations",
				"commercial architecture, workplace design, office buildings, masterplanning, urban design, civic buildings, " +
					"museums, libraries, schools design, university campuses, laboratories, healthcare architecture, " +
					"hospitality architecture, hotels design, mixed-use buildings, high-rise buildings, mass timber, " +
					"adaptive reuse design, facade design, design competitions, BIM, Revit models, LEED design, " +
					"WELL building standard, community engagement, design guidelines, zoning analysis, transit-oriented development, " +
					"public spaces, placemaking design, sports venues, airport terminals, tenant fit-out design, " +
					"sustainable architecture, embodied carbon, " +
					"civic projects, campus masterplans, public architecture, workplace strategy, design-led regeneration"},
			{"interior design",
				"homeowners, hotels, restaurants, offices, retailers, property developers",
				"interior design, interior decorating, space planning, furniture selection, custom furniture, lighting design, " +
					"color schemes, textiles, wallpaper, window treatments, art curation, styling, mood boards, " +
					"kitchen and bath design, luxury interiors, hospitality interiors, restaurant interiors, retail interiors, " +
					"office interiors, model home staging, e-design, design consultation, finishes and fixtures, " +
					"procurement services, FF&E, millwork, showroom, trade pricing, sustainable materials, " +
					"biophilic design, acoustic design, Scandinavian style, mid-century modern, full-service interior design, " +
					"installation day, design fees, " +
					"interior styling, home interiors, furnishing plans, design packages"},
			{"landscape architecture",
				"cities, park departments, developers, homeowners, campuses, resorts",
				"landscape architecture, landscape design, garden design, parks and open space, streetscapes, plazas, " +
					"planting plans, native plants, stormwater management, green infrastructure, rain gardens, bioswales, " +
					"green roofs, irrigation design, hardscape design, outdoor lighting, playgrounds, trails and greenways, " +
					"ecological restoration, urban forestry, tree surveys, site grading, landscape masterplans, " +
					"campus landscapes, waterfront parks, public realm, pollinator gardens, xeriscaping, courtyards, " +
					"pool landscapes, outdoor kitchens, pergolas, landscape construction documents, site furnishings, " +
					"public parks design, landscape planning, garden masterplans, planting design, park renovations, " +
					"site landscapes"},
		},
	},
	{
		label: "MANUFACTURING", weight: 6, arch: archIndustrial,
		kinds:   "manufacturer, manufacturing company, contract manufacturer",
		names:   "Manufacturing, Fabrication, Precision, Tooling",
		models:  "B2B:9 B2G:1",
		related: "INDUSTRIAL_AUTOMATION AUTOMOTIVE AEROSPACE_DEFENSE",
		vendors: "sap.com plex.com autodesk.com thomasnet.com hubspot.com solidworks.com",
		terms: "manufacturing, production, factory, ISO 9001, quality control, tolerances, lead times, production capacity, " +
			"OEMs, custom parts, request a quote, engineering support, materials, prototypes, production runs, " +
			"certifications, on-time delivery, lean manufacturing, facility, shop floor",
		niches: []nicheSpec{
			{"CNC machining",
				"OEMs, aerospace suppliers, medical device companies, robotics companies, hardware startups, automotive suppliers",
				"CNC machining, CNC milling, CNC turning, 5-axis machining, Swiss machining, precision machined parts, " +
					"tight tolerances, aluminum parts, stainless steel parts, titanium machining, plastic machining, " +
					"prototype machining, production machining, EDM, wire EDM, grinding, surface finishing, anodizing, " +
					"bead blasting, CMM inspection, first article inspection, PPAP, machined components, fixtures and jigs, " +
					"tool rooms, lathes, machining centers, CAM programming, short-run production, high-volume machining, " +
					"threaded parts, complex geometries, deburring, heat treatment, material certifications, AS9100, " +
					"machine shop, precision parts, CNC programming, machining quotes"},
			{"metal fabrication",
				"construction companies, equipment makers, architects, agricultural equipment makers, energy companies, contractors",
				"metal fabrication, sheet metal fabrication, laser cutting, plasma cutting, waterjet cutting, press brake forming, " +
					"bending, welding services, MIG welding, TIG welding, robotic welding, structural steel, steel fabrication, " +
					"stainless steel fabrication, aluminum fabrication, weldments, enclosures, brackets, chassis, frames, " +
					"powder coating, galvanizing, punching, stamping, roll forming, tube bending, assembly services, " +
					"custom metalwork, architectural metalwork, railings, staircases, platforms, hoppers, tanks, " +
					"certified welders, fabrication drawings, " +
					"fabrication shop, custom fabrication, steel brackets, welding fixtures"},
			{"plastics and injection molding",
				"consumer product companies, medical device makers, automotive suppliers, packaging companies, appliance makers, startups",
				"injection molding, plastic injection molding, mold making, tooling design, mold flow analysis, " +
					"thermoplastics, overmolding, insert molding, two-shot molding, blow molding, thermoforming, " +
					"rotational molding, extrusion, plastic parts, resin selection, ABS, polycarbonate, polypropylene, " +
					"nylon parts, medical-grade plastics, cleanroom molding, high-volume molding, prototype molds, " +
					"aluminum molds, steel molds, hot runners, cycle time, part design review, texture and finish, " +
					"color matching, assembly and packaging, ultrasonic welding, pad printing, mold maintenance, " +
					"recycled plastics, " +
					"molded parts, injection molds, plastic components, molding presses, mold trials"},
			{"industrial components",
				"machine builders, distributors, maintenance teams, OEMs, mining companies, food processors",
				"industrial components, bearings, gears, gearboxes, couplings, seals, gaskets, O-rings, springs, fasteners, " +
					"valves, pumps, hydraulic cylinders, pneumatic components, hoses and fittings, conveyor components, " +
					"power transmission, linear motion, shafts, sprockets and chains, castings, forgings, investment casting, " +
					"sand casting, die casting, powder metallurgy, machined castings, replacement parts, custom components, " +
					"distributor network, stock programs, catalog parts, technical datasheets, CAD downloads, " +
					"corrosion-resistant parts, heavy-duty components, wear parts, aftermarket parts, " +
					"industrial parts, mechanical components, component distribution, OEM components, " +
					"replacement bearings, drive components, precision gears"},
		},
	},
	{
		label: "INDUSTRIAL_AUTOMATION", weight: 2, arch: archIndustrial,
		kinds:   "automation company, systems integrator, automation equipment maker",
		names:   "Automation, Controls, Robotics, Motion",
		models:  "B2B:10",
		related: "MANUFACTURING HARDWARE_ELECTRONICS SOFTWARE",
		vendors: "siemens.com rockwellautomation.com ptc.com aveva.com hubspot.com",
		terms: "industrial automation, automation solutions, factories, productivity, control systems, integration, " +
			"engineering services, uptime, efficiency, commissioning, automation projects, machine builders, " +
			"plant floor, throughput, safety standards, retrofits, automation engineers",
		niches: []nicheSpec{
			{"industrial robotics",
				"manufacturers, warehouses, food processors, automotive plants, electronics assemblers, logistics centers",
				"industrial robots, robotic arms, collaborative robots, cobots, robot integration, robotic welding cells, " +
					"pick and place robots, palletizing robots, depalletizing, machine tending, robotic packaging, " +
					"end-of-arm tooling, grippers, vacuum grippers, vision-guided robotics, robot programming, offline programming, " +
					"robot simulation, robotic cells, safety fencing, light curtains, autonomous mobile robots, AMRs, AGVs, " +
					"bin picking, robotic sanding, robotic painting, robot maintenance, ROI calculator, robot leasing, " +
					"teach pendant, payload capacity, robot reach, cycle time reduction, robotics training, " +
					"robot cells, automation cells, robot arms integration, cobot applications, " +
					"robotic automation projects"},
			{"control systems and PLCs",
				"plant engineers, OEMs, water utilities, process plants, maintenance managers, system integrators",
				"PLC programming, programmable logic controllers, HMI design, SCADA systems, DCS, control panels, " +
					"panel building, UL 508A panels, motor control centers, variable frequency drives, VFDs, servo drives, " +
					"motion control, industrial networks, EtherNet/IP, PROFINET, Modbus, OPC UA, remote I/O, " +
					"control system migration, alarm management, batch control, process control, instrumentation, " +
					"loop tuning, functional safety, SIL assessments, safety PLCs, control narratives, FAT testing, " +
					"SAT testing, startup support, legacy PLC upgrades, historian, industrial PCs, " +
					"control engineering, PLC code, automation panels, control upgrades, SCADA dashboards"},
			{"machine vision and sensors",
				"quality engineers, packaging lines, pharmaceutical manufacturers, automotive plants, electronics makers, food producers",
				"machine vision systems, smart cameras, vision inspection, barcode readers, code reading, OCR verification, " +
					"2D and 3D vision, laser profilers, photoelectric sensors, proximity sensors, encoders, " +
					"safety laser scanners, level sensors, pressure transmitters, flow meters, temperature sensors, " +
					"vibration sensors, condition monitoring, predictive maintenance sensors, IO-Link, sensor integration, " +
					"lighting for vision, lenses, defect detection systems, measurement gauging, color inspection, " +
					"label inspection, traceability, reject systems, track and trace, serialization, vision software, " +
					"calibration targets, inline inspection, " +
					"vision cameras, inspection systems, industrial sensors, sensor networks for machines, " +
					"image processing for inspection, vision lighting"},
			{"smart factory software",
				"plant managers, operations directors, continuous improvement teams, manufacturers, COOs, industrial engineers",
				"manufacturing execution system, MES, OEE tracking, production monitoring, downtime tracking, " +
					"digital work instructions, IIoT platform, machine connectivity, edge computing for factories, " +
					"predictive maintenance, CMMS, maintenance scheduling, digital twin, production scheduling, " +
					"quality management software, SPC, statistical process control, traceability software, andon systems, " +
					"shop floor dashboards, energy monitoring, paperless manufacturing, operator tablets, " +
					"manufacturing analytics, root cause analysis, Industry 4.0, connected workers, recipe management, " +
					"production genealogy, ERP integration, cycle time analysis, scrap reduction, smart factory roadmap, " +
					"factory software, production KPIs, shift reports, machine data, digital shop floor, " +
					"plant performance, factory analytics"},
		},
	},
	{
		label: "AEROSPACE_DEFENSE", weight: 1, arch: archIndustrial, size: 1,
		kinds:   "aerospace company, defense contractor, aerospace supplier",
		names:   "Aerospace, Defense, Avionics, Aviation",
		models:  "B2G:6 B2B:4",
		related: "MANUFACTURING HARDWARE_ELECTRONICS TRANSPORTATION_LOGISTICS",
		vendors: "sap.com ptc.com 3ds.com siemens.com oracle.com",
		terms: "aerospace, defense, aircraft, missions, programs, AS9100, ITAR compliance, flight, engineering, " +
			"government contracts, prime contractors, reliability, certification, airworthiness, systems integration, " +
			"security clearance, mission-critical systems, qualification testing",
		niches: []nicheSpec{
			{"aircraft components and MRO",
				"airlines, aircraft OEMs, MRO providers, business jet operators, cargo carriers, leasing companies",
				"aircraft parts, aerostructures, landing gear, engine components, turbine blades, composite structures, " +
					"aircraft interiors, cabin seating, galley equipment, avionics upgrades, MRO services, aircraft maintenance, " +
					"heavy checks, line maintenance, component overhaul, repair stations, FAA Part 145, EASA Part 145, " +
					"aircraft inspections, non-destructive testing, NDT, engine overhaul, APU repair, parts distribution, " +
					"AOG support, rotables, PMA parts, aircraft painting, cabin refurbishment, STC certification, " +
					"fleet support, spare parts pooling, aircraft records, airworthiness directives, " +
					"aircraft maintenance programs, component repair, aviation parts, hangar services, " +
					"aircraft modifications, engine shop"},
			{"space systems",
				"satellite operators, space agencies, launch providers, Earth observation companies, defense agencies, researchers",
				"space systems, satellites, small satellites, CubeSats, satellite buses, payloads, launch services, " +
					"rocket engines, launch vehicles, ground stations, satellite communications, Earth observation, " +
					"remote sensing, satellite imagery, orbit determination, propulsion systems, star trackers, reaction wheels, " +
					"solar arrays for spacecraft, radiation-hardened electronics, space-qualified components, thermal vacuum testing, " +
					"mission operations, constellation design, in-orbit servicing, space debris tracking, lunar missions, " +
					"rideshare launches, satellite integration, telemetry and command, spectrum filings, hosted payloads, " +
					"deployable structures, " +
					"spacecraft, satellite components, launch campaigns, orbital missions, satellite manufacturing, " +
					"space hardware, mission control"},
			{"defense systems",
				"armed forces, defense ministries, homeland security agencies, allied governments, border agencies, prime contractors",
				"defense systems, radar systems, electronic warfare, command and control, C4ISR, tactical communications, " +
					"secure radios, unmanned aerial systems, drones for defense, counter-drone systems, surveillance systems, " +
					"night vision, thermal imaging for defense, armored vehicles, munitions, simulation and training, " +
					"military training systems, mission systems, ruggedized computers, MIL-SPEC, MIL-STD testing, " +
					"defense electronics, sonar systems, naval systems, ballistic protection, logistics support, " +
					"sustainment, cyber defense, ISR platforms, targeting systems, force protection, defense procurement, " +
					"NATO standards, export controls, " +
					"military systems, defense programs, tactical systems, defense technology, mission readiness, " +
					"battlefield communications"},
		},
	},
	{
		label: "AUTOMOTIVE", weight: 3, arch: archIndustrial,
		kinds:   "automotive company, auto dealer, automotive supplier",
		names:   "Motors, Automotive, Cars, Garage",
		models:  "B2C:6 B2B:4",
		related: "MANUFACTURING TRANSPORTATION_LOGISTICS RETAIL",
		vendors: "dealer.com cdkglobal.com cars.com autotrader.com salesforce.com facebook.net",
		terms: "automotive, vehicles, cars, drivers, auto industry, service department, parts, models, test drive, " +
			"mileage, warranty, financing, inventory, trucks, SUVs, fleet, maintenance, auto repair, OEM parts",
		niches: []nicheSpec{
			{"car dealerships",
				"car buyers, families, commuters, trade-in customers, fleet buyers, first-time buyers",
				"new cars for sale, used cars, certified pre-owned, car dealership, showroom, trade-in value, auto financing, " +
					"car loans, lease deals, special offers, dealer incentives, test drives, vehicle inventory, sales consultants, " +
					"finance and insurance, F&I products, extended warranties, service appointments, oil changes, tire center, " +
					"genuine parts, vehicle history reports, price match, online car buying, home delivery, credit applications, " +
					"bad credit financing, commercial vehicles, pickup trucks, hybrid vehicles, electric vehicles for sale, " +
					"collision center, car wash, loaner vehicles, dealer group, " +
					"dealer specials, car sales team, vehicle reservations, new model launches, dealership service center"},
			{"auto parts and aftermarket",
				"DIY mechanics, repair shops, car enthusiasts, fleet managers, off-road drivers, racers",
				"auto parts, aftermarket parts, brake pads, rotors, suspension kits, lift kits, exhaust systems, " +
					"performance parts, turbochargers, air intakes, engine tuning, ECU tuning, wheels and tires, " +
					"LED headlights, car audio, dash cams, floor mats, seat covers, towing hitches, roof racks, " +
					"truck accessories, tonneau covers, off-road bumpers, winches, batteries, spark plugs, filters, " +
					"motor oil, fitment guide, part numbers, OEM replacement parts, remanufactured parts, detailing supplies, " +
					"car care products, performance shop, dyno tuning, " +
					"parts catalog, aftermarket upgrades, vehicle fitment, truck parts, performance upgrades"},
			{"electric vehicles and charging",
				"EV drivers, fleet operators, property managers, municipalities, workplaces, utilities",
				"electric vehicles, EV charging stations, home chargers, Level 2 charging, DC fast charging, charging network, " +
					"charging app, charge point installation, workplace charging, fleet electrification, battery range, " +
					"battery packs, battery swapping, charging management software, OCPP, load balancing for chargers, " +
					"smart charging, vehicle-to-grid, V2G, charging subscriptions, EV incentives, EV leasing, " +
					"electric motorcycles, e-bikes, electric scooters, electric buses, electric trucks, charging hubs, " +
					"destination charging, charging uptime, kilowatt-hours, plug and charge, range anxiety, EV conversions, " +
					"EV chargers, charging sessions, charging installers, EV fleet charging, public charging, " +
					"EV batteries"},
			{"auto repair and services",
				"car owners, commuters, families, fleet customers, rideshare drivers, classic car owners",
				"auto repair shop, car service, brake repair, engine diagnostics, check engine light, transmission repair, " +
					"oil change service, tire rotation, wheel alignment, AC repair for cars, battery replacement, " +
					"collision repair, auto body shop, dent repair, paintless dent removal, windshield replacement, " +
					"auto glass, car detailing, ceramic coating, paint protection film, window tinting, state inspections, " +
					"emissions testing, fleet maintenance, mobile mechanics, towing services, roadside help, " +
					"ASE-certified technicians, courtesy shuttle, repair estimates, preventive maintenance, timing belts, " +
					"European car repair, diesel repair, " +
					"car repairs, service center, brake service, auto service specials, vehicle inspections, " +
					"repair appointments"},
		},
	},
	{
		label: "ENERGY", weight: 2, arch: archIndustrial, size: 1,
		kinds:   "energy company, energy supplier, power company",
		names:   "Energy, Power, Electric",
		models:  "B2B:5 B2C:4 B2G:1",
		related: "UTILITIES RENEWABLE_ENERGY OIL_GAS",
		vendors: "salesforce.com sap.com oracle.com esri.com",
		terms: "energy, electricity, power, energy supply, energy costs, consumption, energy markets, kilowatt-hours, " +
			"megawatts, grid, energy efficiency, decarbonization, energy transition, tariffs, energy customers, " +
			"generation, reliability, energy management",
		niches: []nicheSpec{
			{"energy retail and brokerage",
				"households, businesses, procurement managers, facility managers, multi-site retailers, manufacturers",
				"energy supplier, electricity plans, gas and electricity, fixed-rate plans, variable tariffs, energy brokers, " +
					"energy procurement, contract renewals, business energy quotes, smart meters, meter readings, energy bills, " +
					"switching supplier, green tariffs, time-of-use tariffs, demand charges, energy auctions, " +
					"load profiles, utility bill auditing, energy price forecasts, hedging strategies, renewable energy certificates, " +
					"energy invoice validation, budget billing, prepayment meters, energy rebates, demand response programs, " +
					"peak shaving, energy contract management, supply points, deregulated markets, energy comparison, " +
					"energy tariffs, electricity rates, energy switching, business electricity, gas supply contracts, " +
					"energy bills analysis, supplier comparison, energy advisors"},
			{"energy storage",
				"utilities, commercial buildings, solar installers, homeowners, data centers, grid operators",
				"battery energy storage, BESS, grid-scale batteries, lithium-ion batteries, LFP batteries, home batteries, " +
					"behind-the-meter storage, peak shaving with batteries, frequency regulation, ancillary services, " +
					"energy arbitrage, battery management systems, power conversion systems, containerized storage, " +
					"long-duration storage, flow batteries, thermal storage, backup power, microgrids, islanding, " +
					"storage integration, state of charge, cycle life, degradation warranties, energy management system, " +
					"storage project development, interconnection, capacity markets, virtual power plants, " +
					"battery recycling, fire suppression for batteries, storage as a service, " +
					"storage systems, battery projects, storage capacity, megawatt-hours, battery containers, " +
					"grid storage, storage software, battery safety"},
			{"power generation",
				"grid operators, utilities, industrial sites, hospitals, municipalities, independent power producers",
				"power generation, power plants, gas turbines, combined cycle plants, cogeneration, CHP, peaker plants, " +
					"backup generators, diesel generators, standby power, prime power, generator rentals, turbine maintenance, " +
					"plant operations, heat rate, capacity factor, power purchase agreements, independent power producers, " +
					"hydrogen-ready turbines, reciprocating engines, plant efficiency upgrades, emissions controls, " +
					"transmission interconnection, substations, switchgear, transformers, plant commissioning, " +
					"operations and maintenance, O&M contracts, outage services, spare parts for turbines, " +
					"district heating plants, waste heat recovery, " +
					"generating capacity, power station, turbine upgrades, generation assets, power output, " +
					"electricity generation, plant maintenance, gensets"},
		},
	},
	{
		label: "RENEWABLE_ENERGY", weight: 3, arch: archIndustrial,
		kinds:   "renewable energy company, solar company, clean energy developer",
		names:   "Solar, Wind, Renewables, Cleantech",
		models:  "B2C:4 B2B:5 B2G:1",
		related: "ENERGY UTILITIES ENVIRONMENTAL_SERVICES",
		vendors: "salesforce.com hubspot.com aurorasolar.com enphase.com esri.com",
		terms: "renewable energy, clean energy, sustainability, carbon emissions, net zero, green power, " +
			"energy independence, incentives, tax credits, installations, megawatts, clean power, climate, " +
			"energy savings, long-term warranties, performance monitoring",
		niches: []nicheSpec{
			{"residential solar",
				"homeowners, families, eco-conscious households, rural properties, new home builders, HOAs",
				"solar panels, rooftop solar, home solar systems, solar installation, solar installers, inverters, " +
					"microinverters, solar batteries, net metering, solar loans, solar leases, power purchase agreement, " +
					"federal solar tax credit, solar rebates, solar quote, site assessment, roof assessment, solar permits, " +
					"interconnection, solar monitoring app, panel efficiency, monocrystalline panels, solar shingles, " +
					"ground-mounted solar, solar carports, panel cleaning, solar maintenance, production guarantee, " +
					"electric bill savings, payback period, energy audit, EV charging with solar, backup power, " +
					"solar financing options, 25-year warranty, " +
					"solar systems for homes, home solar quotes, solar savings, rooftop panels, " +
					"solar panel installation"},
			{"utility-scale solar and wind",
				"utilities, corporate offtakers, investors, landowners, municipalities, grid operators",
				"utility-scale solar, solar farms, wind farms, onshore wind, offshore wind, wind turbines, turbine blades, " +
					"project development, land leasing, environmental permitting, interconnection queue, EPC contractors, " +
					"power purchase agreements, corporate PPAs, virtual PPAs, tracker systems, bifacial modules, " +
					"wind resource assessment, met masts, lidar measurements, energy yield assessment, project finance, " +
					"tax equity, repowering, asset management, O&M services, SCADA for renewables, curtailment, " +
					"community benefit agreements, agrivoltaics, floating solar, hybrid plants, renewable energy credits, " +
					"renewable projects, solar parks, wind projects, project pipeline in megawatts, grid connection, " +
					"turbine installation, solar modules supply, wind energy"},
			{"commercial solar and efficiency",
				"businesses, schools, warehouses, farms, municipalities, nonprofits",
				"commercial solar, solar for business, rooftop arrays, carport solar, community solar, community solar subscriptions, " +
					"energy efficiency upgrades, LED lighting retrofits, building energy audits, heat pump retrofits, " +
					"energy service company, ESCO, energy savings performance contracts, solar for schools, agricultural solar, " +
					"solar for nonprofits, depreciation benefits, MACRS, investment tax credit, demand charge reduction, " +
					"building electrification, smart thermostats for buildings, solar plus storage, energy dashboards, " +
					"carbon reporting, sustainability goals, green building certification, solar O&M, " +
					"power factor correction, variable speed drives retrofit, efficiency rebates, " +
					"business solar, solar arrays for warehouses, efficiency projects, energy retrofits, " +
					"commercial rooftops, solar leasing for business, energy efficiency audits, LED retrofits, " +
					"solar canopies"},
			{"green hydrogen and bioenergy",
				"industrial users, refineries, transport operators, farmers, municipalities, gas utilities",
				"green hydrogen, electrolyzers, hydrogen production, hydrogen refueling stations, fuel cells, " +
					"hydrogen storage, ammonia, e-fuels, sustainable aviation fuel, biogas, anaerobic digestion, " +
					"renewable natural gas, RNG, biomethane, biomass, wood pellets, biochar, waste-to-energy, " +
					"landfill gas, biodiesel, renewable diesel, feedstock supply, carbon intensity scores, low carbon fuel standard, " +
					"hydrogen hubs, electrolysis efficiency, power-to-gas, geothermal energy, geothermal heat pumps, " +
					"district energy, heat networks, renewable heat, " +
					"hydrogen projects, bioenergy plants, biogas plants, renewable fuels, hydrogen fuel, clean fuels, " +
					"digesters, green ammonia"},
		},
	},
	{
		label: "OIL_GAS", weight: 1, arch: archIndustrial, size: 1,
		kinds:   "oil and gas company, energy services company, oilfield services provider",
		names:   "Petroleum, Oil, Gas, Drilling, Exploration",
		models:  "B2B:10",
		related: "ENERGY CHEMICALS MINING_METALS",
		vendors: "sap.com oracle.com aveva.com esri.com",
		terms: "oil and gas, petroleum, upstream, midstream, downstream, hydrocarbons, wells, reservoirs, barrels, " +
			"energy production, HSE, health safety and environment, operators, field operations, basins, " +
			"production volumes, crude oil, natural gas, operational excellence",
		niches: []nicheSpec{
			{"exploration and production",
				"operators, mineral owners, investors, joint venture partners, national oil companies, royalty owners",
				"exploration, production, drilling programs, horizontal drilling, hydraulic fracturing, well completions, " +
					"seismic surveys, geoscience, reservoir engineering, petrophysics, acreage, leases, mineral rights, " +
					"royalty interests, working interests, proved reserves, production forecasts, decline curves, " +
					"enhanced oil recovery, waterflooding, offshore platforms, shale plays, Permian Basin, North Sea, " +
					"well pads, artificial lift, rod pumps, gas lift, flowback, production optimization, " +
					"plugging and abandonment, emissions reduction, flaring reduction, methane detection, " +
					"oil production, gas wells, upstream operations, drilling locations, reserves growth, " +
					"production operations"},
			{"oilfield services",
				"E&P operators, drilling contractors, service companies, offshore operators, pipeline companies, refineries",
				"oilfield services, drilling rigs, rig rental, directional drilling services, mud logging, drilling fluids, " +
					"cementing services, wireline services, coiled tubing, well intervention, frac sand, pressure pumping, " +
					"well testing, fishing tools, downhole tools, drill bits, casing and tubing, OCTG, pipe inspection, " +
					"wellhead equipment, blowout preventers, rig inspection, water hauling, water transfer, produced water, " +
					"hot oiling, roustabout services, crane services, oilfield trucking, equipment rental, " +
					"safety training, rig moves, HSE compliance, " +
					"well services, oilfield equipment, drilling services, completion services, field service crews, " +
					"pressure control, " +
					"frac crews"},
			{"midstream and refining",
				"shippers, refiners, fuel distributors, petrochemical plants, utilities, traders",
				"pipelines, gathering systems, gas processing plants, compressor stations, storage terminals, tank farms, " +
					"crude oil transportation, NGL fractionation, LNG terminals, liquefaction, regasification, marine terminals, " +
					"refinery, refining capacity, fuel blending, diesel, jet fuel, gasoline, lubricants, asphalt, " +
					"pipeline integrity, leak detection, cathodic protection, pigging, SCADA for pipelines, " +
					"custody transfer, metering skids, tank cleaning, turnarounds, refinery maintenance, fuel distribution, " +
					"bulk fuel delivery, fuel cards, " +
					"pipeline operations, terminal services, fuel products, crude gathering, storage capacity for fuels, " +
					"refinery operations, " +
					"fuel terminals"},
		},
	},
	{
		label: "UTILITIES", weight: 1, arch: archPublic, size: 1,
		kinds:   "utility, utility company, public utility",
		names:   "Utilities, Water, Grid, Hydro",
		models:  "B2C:6 B2B:3 B2G:1",
		related: "ENERGY GOVERNMENT ENVIRONMENTAL_SERVICES",
		vendors: "oracle.com sap.com esri.com itron.com paymentus.com",
		terms: "utility services, customers, service territory, rates, billing, outages, reliability, infrastructure, " +
			"public utility commission, service connections, meters, customer service, account management, " +
			"start or stop service, pay your bill, conservation, community",
		niches: []nicheSpec{
			{"water and wastewater",
				"residents, businesses, municipalities, developers, farms, industrial users",
				"drinking water, water treatment plant, wastewater treatment, water quality reports, water mains, " +
					"water meters, sewer service, stormwater fees, water conservation, lead service line replacement, " +
					"boil water notices, water pressure, fire hydrants, backflow prevention, cross-connection control, " +
					"reservoirs, groundwater wells, desalination, water recycling, reclaimed water, leak detection, " +
					"water rates, consumer confidence report, water restrictions, irrigation schedules, septic services, " +
					"pump stations, water tower, utility locates, new water connections, water softening, " +
					"biosolids management, water infrastructure projects, " +
					"water utility, sewer utility, water bills, water service, utility water rates, water main breaks, " +
					"tap fees"},
			{"electric and gas utilities",
				"households, businesses, cooperatives members, industrial customers, municipalities, developers",
				"electric utility, power outages, outage map, storm restoration, power lines, transmission lines, " +
					"distribution network, substations, smart grid, advanced metering infrastructure, AMI, net metering programs, " +
					"rate plans, time-of-use rates, energy assistance programs, budget billing plans, electric cooperative, " +
					"natural gas service, gas leaks, gas line safety, call before you dig, service line warranties, " +
					"vegetation management, tree trimming, grid modernization, undergrounding, wildfire mitigation, " +
					"rebates for efficiency, EV rates, new service requests, meter upgrades, line crews, capital improvement plans, " +
					"electric service, gas service, power restoration, utility rates, energy programs, utility poles, " +
					"electric bills"},
			{"utility infrastructure services",
				"utilities, municipalities, telecom operators, contractors, developers, public works departments",
				"utility contractors, utility construction, line construction, underground utility installation, " +
					"gas distribution construction, pipeline replacement, meter installation services, smart meter deployment, " +
					"utility locating, subsurface utility engineering, hydro excavation, storm response crews, " +
					"pole replacement, utility engineering, GIS mapping for utilities, asset inspections, drone inspections, " +
					"vegetation management contractors, emergency restoration, substation construction, " +
					"water main replacement, sewer rehabilitation, pipe lining, manhole rehabilitation, CCTV sewer inspection, " +
					"utility workforce, traffic control for utilities, joint trench, grid hardening, " +
					"utility services contractor, infrastructure crews, utility projects, underground construction, " +
					"meter services, field crews, pole inspections, gas main replacement, utility design, " +
					"utility line contractors, substation crews"},
		},
	},
	{
		label: "MINING_METALS", weight: 1, arch: archIndustrial, size: 1,
		kinds:   "mining company, metals producer, mineral exploration company",
		names:   "Mining, Metals, Minerals, Resources, Steel",
		models:  "B2B:10",
		related: "OIL_GAS MANUFACTURING CHEMICALS",
		vendors: "sap.com oracle.com esri.com hexagon.com",
		terms: "mining, minerals, metals, deposits, ore, exploration, mine sites, resource estimates, " +
			"production, commodity prices, sustainability reporting, safety performance, communities, " +
			"permits, shareholders, operations, tonnes, reclamation",
		niches: []nicheSpec{
			{"mineral exploration",
				"shareholders, investors, joint venture partners, prospectors, junior miners, geological surveys",
				"mineral exploration, drilling results, drill holes, assay results, core samples, gold exploration, " +
					"copper exploration, lithium exploration, nickel, rare earth elements, uranium, mineral claims, " +
					"exploration licenses, geological mapping, geochemistry, geophysical surveys, magnetic surveys, " +
					"resource drilling, NI 43-101 reports, JORC resources, inferred resources, indicated resources, " +
					"preliminary economic assessment, feasibility study, junior mining company, flow-through shares, " +
					"exploration camp, helicopter support, property option agreements, grassroots exploration, " +
					"critical minerals, battery metals, project pipeline, " +
					"exploration program, drill program, exploration targets, mineralization, claims package, " +
					"exploration results, " +
					"trenching programs"},
			{"mining operations",
				"mine operators, smelters, equipment suppliers, contractors, local communities, regulators",
				"open-pit mining, underground mining, mine development, ore processing, concentrators, flotation, " +
					"heap leaching, crushing and grinding, tailings management, tailings dams, mine haul trucks, " +
					"mining equipment, drilling and blasting, mine planning, ventilation, ground support, mine dewatering, " +
					"fleet management systems, autonomous haulage, mine safety, mine rescue, reclamation and closure, " +
					"water management, dust control, contract mining, mining services, equipment rebuilds, mill throughput, " +
					"recovery rates, all-in sustaining costs, mine life, " +
					"mine production, processing plant, mining fleet, ore reserves, mine expansion, mining contractors, " +
					"haul roads, mine operations team, " +
					"ore grade control"},
			{"steel and metals processing",
				"fabricators, automotive makers, construction companies, manufacturers, distributors, shipbuilders",
				"steel mill, steel production, electric arc furnace, blast furnace, hot-rolled coil, cold-rolled steel, " +
					"galvanized steel, stainless steel coils, plate steel, structural sections, rebar, wire rod, " +
					"aluminum extrusions, aluminum smelting, copper products, copper wire, metal service center, " +
					"slitting, cut-to-length, metal distribution, alloys, specialty alloys, scrap metal recycling, " +
					"ferrous scrap, non-ferrous metals, metal trading, mill certificates, heat treatment services, " +
					"foundry, metal powders, precious metals refining, low-carbon steel, green steel, " +
					"steel products, metal processing, steel service center, metal coils, metal sheets, steel plates, " +
					"metal fabrication supply"},
		},
	},
	{
		label: "CHEMICALS", weight: 1, arch: archIndustrial, size: 1,
		kinds:   "chemical company, chemical manufacturer, chemical distributor",
		names:   "Chemicals, Polymers, Coatings, Chemie",
		models:  "B2B:10",
		related: "MANUFACTURING OIL_GAS PHARMACEUTICALS",
		vendors: "sap.com oracle.com salesforce.com veeva.com",
		terms: "chemicals, chemistry, formulations, raw materials, safety data sheets, SDS, REACH compliance, " +
			"product stewardship, technical service, specifications, applications, industrial customers, " +
			"R&D laboratory, quality assurance, plants, supply reliability, sustainability",
		niches: []nicheSpec{
			{"specialty chemicals",
				"formulators, manufacturers, personal care brands, oilfield operators, water treatment companies, electronics makers",
				"specialty chemicals, surfactants, additives, catalysts, adhesives, sealants, lubricant additives, " +
					"water treatment chemicals, corrosion inhibitors, biocides, flame retardants, pigments, dyes, " +
					"emulsifiers, defoamers, rheology modifiers, cosmetic ingredients, fragrance chemicals, " +
					"electronic chemicals, high-purity chemicals, custom synthesis, toll manufacturing, contract manufacturing, " +
					"pilot plant, scale-up, technical datasheets, sample requests, formulation support, bio-based chemicals, " +
					"green chemistry, regulatory support, performance chemicals, oilfield chemicals, " +
					"chemical additives, specialty ingredients, chemical solutions, formulation chemistry, " +
					"chemical intermediates, industrial chemicals, chemical specialties"},
			{"paints and coatings",
				"contractors, painters, industrial manufacturers, automotive refinishers, architects, DIY consumers",
				"paints, coatings, architectural coatings, industrial coatings, powder coatings, protective coatings, " +
					"marine coatings, anti-corrosion coatings, floor coatings, epoxy coatings, polyurethane coatings, " +
					"primers, varnishes, wood stains, automotive refinish, color matching, color cards, low-VOC paints, " +
					"waterborne coatings, coating specifications, surface preparation, film thickness, UV-curable coatings, " +
					"intumescent coatings, fireproofing, roof coatings, road marking paints, anti-graffiti coatings, " +
					"paint stores, tinting systems, coating inspections, " +
					"paint products, coating systems, paint colors, industrial paints, protective finishes, " +
					"coating application, paint technology, decorative paints, specialty coatings"},
			{"plastics and polymers",
				"converters, packaging makers, automotive suppliers, compounders, 3D printing companies, recyclers",
				"polymers, resins, polyethylene, polypropylene, PVC, PET resin, engineering plastics, polyamides, " +
					"elastomers, thermoplastic elastomers, silicones, masterbatches, color concentrates, compounding, " +
					"polymer additives, plasticizers, recycled resins, post-consumer recycled content, chemical recycling, " +
					"bioplastics, PLA, biodegradable polymers, 3D printing filaments, polymer films, foams, " +
					"polyurethane systems, epoxy resins, composites resins, melt flow index, resin distribution, " +
					"pellets, polymer testing, " +
					"polymer products, plastic resins, resin grades, polymer compounds, specialty polymers, " +
					"polymer solutions, plastic materials, resin supply"},
		},
	},
	{
		label: "AGRICULTURE", weight: 3, arch: archIndustrial, size: -1,
		kinds:   "agricultural business, farm, agribusiness",
		names:   "Farms, Agro, Harvest, Seeds, Growers",
		models:  "B2B:6 B2C:4",
		related: "FOOD_BEVERAGE CHEMICALS ENVIRONMENTAL_SERVICES",
		vendors: "deere.com trimble.com shopify.com squareup.com granular.ag",
		terms: "agriculture, farming, farmers, crops, harvest, fields, acres, growers, seasons, yields, soil, " +
			"family farm, sustainable farming, rural, agronomy, planting, livestock, farm operations",
		niches: []nicheSpec{
			{"crop farming and produce",
				"grocery retailers, wholesalers, farmers markets, restaurants, food processors, CSA members",
				"fresh produce, vegetables, fruit orchards, apples, berries, citrus, leafy greens, tomatoes, potatoes, " +
					"grain crops, corn, soybeans, wheat, rice, cotton, hay, organic produce, certified organic, " +
					"CSA boxes, farm stand, pick your own, greenhouse growing, hydroponics, vertical farming, " +
					"microgreens, irrigation, drip irrigation, crop rotation, cover crops, packing house, cold storage, " +
					"GAP certification, food safety, wholesale produce, seasonal harvest, heirloom varieties, " +
					"harvest season, fresh vegetables, fruit farm, produce boxes, farm fresh, crop production"},
			{"livestock and dairy",
				"meat processors, dairy processors, restaurants, butchers, families, feedlots",
				"cattle ranch, beef cattle, grass-fed beef, dairy farm, milk production, dairy cows, pasture-raised, " +
					"pork production, hogs, poultry farm, chickens, eggs, free-range eggs, sheep, lamb, goats, " +
					"animal health, veterinary care, livestock feed, feed rations, herd management, breeding stock, " +
					"artificial insemination, calving, milking parlor, robotic milking, manure management, rotational grazing, " +
					"animal welfare, livestock auctions, meat boxes, whole animal butchery, farm-direct meat, hatcheries, " +
					"livestock farm, dairy products, cattle herd, farm animals, raw milk, heritage breeds, " +
					"pasture management"},
			{"agtech and precision farming",
				"farmers, agronomists, cooperatives, crop consultants, large farming operations, seed companies",
				"precision agriculture, farm management software, yield monitoring, variable rate application, " +
					"soil sampling, soil moisture sensors, satellite crop monitoring, NDVI imagery, agricultural drones, " +
					"drone spraying, GPS guidance, auto-steer, farm machinery telematics, field mapping, " +
					"crop modeling, weather stations, irrigation scheduling, nutrient management, input optimization, " +
					"farm data platform, agronomic recommendations, pest monitoring, disease forecasting, carbon farming, " +
					"regenerative agriculture, carbon credits for farms, livestock monitoring, smart collars, " +
					"grain bin monitoring, farm robotics, " +
					"agtech platform, farm data, field sensors, precision ag tools, smart farming, crop insights, " +
					"yield data, variable-rate maps, farm apps, agronomic models"},
			{"farm inputs and equipment",
				"farmers, ranchers, dealers, cooperatives, landscapers, growers",
				"seeds, seed varieties, hybrid seeds, fertilizers, crop protection, herbicides, fungicides, biologicals, " +
					"soil amendments, lime spreading, animal feed, tractors, combines, planters, sprayers, balers, " +
					"farm equipment dealer, equipment parts, equipment service, used tractors, implements, grain handling, " +
					"grain bins, grain dryers, irrigation pivots, fencing supplies, livestock equipment, trailers, " +
					"agronomy services, crop input financing, farm supply store, bulk fertilizer delivery, custom application, " +
					"farm supplies, crop inputs, tractor parts, equipment dealers, seed orders, fertilizer programs, " +
					"farm machinery"},
		},
	},
	{
		label: "TRANSPORTATION_LOGISTICS", weight: 5, arch: archIndustrial,
		kinds:   "logistics company, transportation company, freight provider",
		names:   "Logistics, Freight, Transport, Shipping, Cargo",
		models:  "B2B:9 B2C:1",
		related: "E_COMMERCE RETAIL AUTOMOTIVE",
		vendors: "project44.com fourkites.com samsara.com shipstation.com salesforce.com descartes.com",
		terms: "logistics, transportation, shipping, freight, shipments, supply chain, delivery, carriers, tracking, " +
			"on-time delivery, warehouses, routes, lanes, fleet, dispatch, customers, service areas, logistics solutions, " +
			"get a quote, visibility",
		niches: []nicheSpec{
			{"trucking and freight brokerage",
				"shippers, manufacturers, distributors, retailers, owner-operators, carriers",
				"truckload shipping, FTL, less-than-truckload, LTL, freight brokerage, freight broker, dry van, " +
					"refrigerated trucking, reefer loads, flatbed trucking, heavy haul, oversized loads, drayage, " +
					"intermodal, dedicated fleet, load board, spot quotes, contract rates, capacity, carrier network, " +
					"owner-operators, truck drivers, CDL drivers, driver recruiting, ELD compliance, hours of service, " +
					"freight claims, bill of lading, proof of delivery, detention, fuel surcharge, cross-border trucking, " +
					"hazmat transport, expedited freight, power-only, " +
					"freight loads, trucking company, freight rates, truck capacity, shipper portal"},
			{"warehousing and fulfillment",
				"ecommerce brands, retailers, DTC brands, manufacturers, marketplace sellers, distributors",
				"warehousing, fulfillment services, third-party logistics, 3PL, ecommerce fulfillment, pick and pack, " +
					"order fulfillment, inventory storage, pallet storage, cross-docking, kitting, returns processing, " +
					"reverse logistics, same-day shipping, two-day delivery, fulfillment centers, WMS, " +
					"inventory management, cycle counts, B2B fulfillment, retail replenishment, FBA prep, " +
					"subscription box fulfillment, custom packaging, bonded warehouse, temperature-controlled storage, " +
					"contract logistics, distribution centers, transloading, value-added services, shipping integrations, " +
					"multi-warehouse network, " +
					"fulfillment warehouse, order picking, inventory receiving, storage fees, fulfillment pricing, " +
					"packing stations, warehouse space, " +
					"order fulfillment partner"},
			{"freight forwarding and shipping",
				"importers, exporters, manufacturers, retailers, project cargo owners, customs brokers",
				"freight forwarding, ocean freight, air freight, FCL, LCL, container shipping, customs brokerage, " +
					"customs clearance, import duties, tariffs, HS codes, incoterms, door-to-door shipping, " +
					"port handling, bill of lading, shipping containers, container tracking, NVOCC, consolidation, " +
					"project cargo, breakbulk, charter flights, dangerous goods, cargo insurance, trade compliance, " +
					"export documentation, certificates of origin, bonded transport, rail freight, sea-air, " +
					"landed cost, supply chain consulting, shipping schedules, " +
					"forwarding services, international shipping, shipment booking, cargo tracking, freight quotes, " +
					"customs documents, global logistics network"},
			{"last-mile and courier",
				"online retailers, restaurants, pharmacies, law firms, grocery stores, local businesses",
				"last-mile delivery, courier services, same-day delivery, on-demand delivery, parcel delivery, " +
					"local couriers, bike couriers, van delivery, route optimization, delivery drivers, delivery app, " +
					"real-time tracking, delivery windows, proof of delivery photos, contactless delivery, " +
					"grocery delivery logistics, pharmacy delivery, legal document delivery, medical courier, " +
					"white glove delivery, furniture delivery, big and bulky delivery, parcel lockers, micro-fulfillment, " +
					"dark stores, delivery fleet, electric delivery vans, cargo bikes, failed delivery reduction, " +
					"courier API, delivery zones, " +
					"courier company, delivery services, parcel couriers, same-day couriers, local delivery, " +
					"delivery tracking, courier drivers, scheduled deliveries, express delivery, delivery routes"},
		},
	},
	{
		label: "ENVIRONMENTAL_SERVICES", weight: 2, arch: archServices,
		kinds:   "environmental services company, environmental consultancy, waste management company",
		names:   "Environmental, Recycling, Waste, Remediation",
		models:  "B2B:7 B2G:2 B2C:1",
		related: "UTILITIES CONSULTING RENEWABLE_ENERGY",
		vendors: "esri.com salesforce.com hubspot.com sphera.com",
		terms: "environmental services, environment, compliance, regulations, sustainability, environmental impact, " +
			"permits, environmental protection, waste, pollution, clients, projects, field teams, " +
			"safety, circular economy, environmental stewardship",
		niches: []nicheSpec{
			{"waste management and recycling",
				"businesses, municipalities, restaurants, construction sites, hospitals, apartment complexes",
				"waste collection, recycling services, dumpster rental, roll-off containers, commercial waste, " +
					"residential trash pickup, single-stream recycling, composting, organics recycling, food waste collection, " +
					"construction debris, junk removal, e-waste recycling, electronics recycling, medical waste disposal, " +
					"hazardous waste disposal, document shredding, cardboard balers, compactors, waste audits, " +
					"zero waste programs, landfill diversion, transfer stations, material recovery facility, " +
					"scrap collection, pallet recycling, battery recycling, tire recycling, recycling bins, pickup schedules, " +
					"waste services, recycling programs, waste hauling, recycling center, trash collection, " +
					"waste containers, commercial recycling, bulky waste, recycling rates, waste diversion, " +
					"compost pickup"},
			{"environmental consulting",
				"developers, industrial facilities, lenders, government agencies, law firms, mining companies",
				"environmental consulting, environmental impact assessment, Phase I environmental site assessment, " +
					"Phase II ESA, environmental due diligence, permitting support, air permits, air quality monitoring, " +
					"emissions inventories, stormwater permits, SWPPP, wetland delineation, ecological surveys, " +
					"endangered species surveys, NEPA documentation, environmental compliance audits, EHS consulting, " +
					"noise monitoring, groundwater monitoring, soil testing, asbestos surveys, lead paint inspections, " +
					"indoor air quality, mold assessments, ESG reporting, greenhouse gas accounting, carbon footprint, " +
					"environmental management systems, ISO 14001, regulatory reporting, " +
					"environmental assessments, environmental permits, compliance consulting, environmental studies, " +
					"site assessments, environmental reports, environmental scientists, impact studies, " +
					"permit applications, habitat surveys"},
			{"remediation and cleanup",
				"property owners, industrial sites, oil companies, railroads, government agencies, insurers",
				"environmental remediation, soil remediation, groundwater remediation, contaminated land, brownfield redevelopment, " +
					"site cleanup, excavation and disposal, in-situ treatment, pump and treat, soil vapor extraction, " +
					"bioremediation, chemical oxidation, PFAS remediation, petroleum spills, spill response, " +
					"emergency response, oil spill cleanup, underground storage tank removal, UST closure, " +
					"asbestos abatement, lead abatement, mold remediation, demolition and decommissioning, " +
					"industrial cleaning, tank cleaning, sediment remediation, landfill closure, vapor intrusion mitigation, " +
					"remedial investigation, site closure reports, " +
					"cleanup projects, contaminated soil, remediation contractors, site remediation, groundwater cleanup, " +
					"hazardous materials, environmental cleanup, remediation systems, spill cleanup, soil disposal"},
		},
	},
}
